/// The state of one `buffer(size:prefetch:whenFull:)` subscription (``BufferSubscription``), under its lock.
///
/// Elements with downstream demand go straight into a ``SerialDelivery`` (which serialises
/// the downstream's signals whichever thread sends or requests); an element without demand
/// waits in `buffer`, a ``FIFO`` that stops allocating once it has grown to `size`. Invariant:
/// the buffer holds elements only while the delivery has no demand left (new demand moves
/// them into the delivery at once, oldest first), so elements keep their order.
///
/// ```text
/// awaiting ──upstream's subscription──▶ subscribing ──downstream has it──▶ running
///   (values, completions,                (the subscribing thread is the
///    requests, cancels ignored)           deliverer: nothing reaches the
///                                         downstream before its subscription)
/// running ──upstream .finished──▶ finishing (buffered elements, then .finished, as demand comes)
///    │  ├──upstream failure──▶ (the requested elements, then the failure; the buffer dropped)
///    │  └──customError when full──▶ failure held (upstream cancelled; at the next request:
///    │                              the elements it covers, then the failure)
///    └──cancel──▶ terminated ◀── the completion handed to the downstream
/// ```
///
/// Upstream demand (`requested`, what was asked and not yet received) is topped up after every event: with
/// `keepFull` to `size` less what is held (buffered, or admitted and not yet delivered, so that a synchronous
/// upstream never runs ahead of a busy deliverer); with `byRequest` it is `.unlimited` from the start, as in
/// Combine (whose documentation says otherwise): the buffer then holds what arrives without downstream
/// demand, up to `size`. The first demand goes up before the downstream has its subscription, as in Combine;
/// a request made while a deliverer is out tops up nothing, the deliverer does when it is back (so that, as
/// in Combine, an element's replacement is what `receive(_:)` returns when the element was delivered inside
/// it).
@usableFromInline
struct BufferState<Downstream: Subscriber> {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias Next = SerialDelivery<Output, Failure>.Next

    /// What to do with an element that does not fit (the closure of `customError` stays
    /// with the subscription, out of the lock's reach).
    @usableFromInline
    enum Overflow {
        case dropNewest, dropOldest, fail
    }

    /// Released on cancel and when the completion goes out.
    @usableFromInline var downstream: Downstream?
    /// Until it is subscribed, every signal is ignored (as in Combine); demand goes upstream
    /// only while it is.
    @usableFromInline var upstream = SubscriptionSlot.awaiting
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    @usableFromInline var buffer = FIFO<Output>()
    /// Upstream demand requested and not yet received.
    @usableFromInline var requested = Subscribers.Demand.none
    /// The upstream finished: `.finished` follows once the buffer is empty.
    @usableFromInline var finishing = false
    /// No upstream element is accepted any more (completion, overflow failure, cancel).
    @usableFromInline var ended = false
    /// `customError`'s failure, made when an element did not fit: it goes out at the
    /// downstream's next request, after the buffered elements that request covers.
    @usableFromInline var heldFailure: Failure?
    /// The thread calling `customError`'s closure, while it does (0 otherwise): an element it
    /// sends the buffer from inside traps, where Combine's buffer deadlocks.
    @usableFromInline var errorMaker: UInt = 0
    @usableFromInline let size: Int
    @usableFromInline let keepFull: Bool
    @usableFromInline let overflow: Overflow

    @inlinable
    init(downstream: Downstream, size: Int, keepFull: Bool, overflow: Overflow) {
        self.downstream = downstream
        self.size = size
        self.keepFull = keepFull
        self.overflow = overflow
    }

    /// The upstream's subscription: the downstream to hand the subscription to and the first upstream demand,
    /// or nil for a second subscription (the caller cancels it). The caller is the deliverer until it has
    /// handed the subscription down and called ``delivered(_:)``, so that what arrives meanwhile (elements
    /// the downstream asks for inside `receive(subscription:)`, a completion) waits for it (rule 1).
    @inlinable
    mutating func attach(_ subscription: any Subscription) -> (Downstream, Subscribers.Demand)? {
        guard let downstream, upstream.attach(subscription) else { return nil }
        delivery.enter()
        return (downstream, topUp())
    }

    /// What the upstream's element leads to.
    @usableFromInline
    enum Arrival {
        /// Kept, queued or dropped; the demand for the upstream to add.
        case kept(Subscribers.Demand)
        /// The sender delivers it now, as the deliverer.
        case deliver(Downstream)
        /// `customError`: cancel this upstream, make the error and hold it.
        case overflowed((any Subscription)?)
        /// Sent from inside `customError`'s closure, on its thread (misuse: it traps).
        case insideCustomError
    }

    @inlinable
    mutating func receive(_ value: Output) -> Arrival {
        guard !ended, upstream.isSubscribed else {
            return errorMaker != 0 && errorMaker == currentThreadIdentity() ? .insideCustomError : .kept(.none)
        }
        if requested != .unlimited && requested > .none { requested -= 1 }
        // Straight through when nothing waits ahead of it, unless the buffer holds nothing at
        // all: Combine's buffer of size 0 treats every element as not fitting.
        if buffer.isEmpty && size > 0 {
            switch delivery.admit(value) {
            case .deliver:
                guard let downstream else { break }
                return .deliver(downstream)
            case .queued:
                return .kept(topUp())
            case .refused:
                break
            }
        }
        if buffer.count < size {
            buffer.append(value)
        } else {
            switch overflow {
            case .dropNewest:
                break
            case .dropOldest:
                if size > 0 {
                    _ = buffer.popFirst()
                    buffer.append(value)
                }
            case .fail:
                ended = true
                errorMaker = currentThreadIdentity()
                return .overflowed(upstream.end()?.upstream)
            }
        }
        return .kept(topUp())
    }

    /// `customError`'s failure, made after the overflow: held for the next request, unless
    /// the downstream cancelled meanwhile.
    @inlinable
    mutating func hold(_ failure: Failure) {
        errorMaker = 0
        if downstream != nil { heldFailure = failure }
    }

    /// The deliverer is back and the downstream asked for `more`: the upstream demand to add,
    /// and what to deliver next.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> (Subscribers.Demand, Next) {
        delivery.demand += more
        _ = pull()
        let next = delivery.next(adding: .none)
        if case .completion = next { terminate() }
        return (topUp(), next)
    }

    /// The downstream asked for `demand`: what to deliver (if this caller becomes the deliverer), to whom,
    /// and the upstream demand to request. Ignored before the upstream's subscription, as in Combine. While a
    /// deliverer is out, the upstream demand is left to it (it tops up when it is back).
    @inlinable
    mutating func request(
        _ demand: Subscribers.Demand
    ) -> (Next, Downstream?, (any Subscription)?, Subscribers.Demand) {
        guard let downstream, !upstream.isAwaiting else { return (.idle, nil, nil, .none) }
        let deliveringElsewhere = delivery.delivering
        delivery.demand += demand
        var next = pull()
        if let failure = heldFailure {
            heldFailure = nil
            buffer = FIFO()
            if delivery.finish(.failure(failure)) { next = .completion(.failure(failure)) }
        }
        if case .completion = next { terminate() }
        return (next, downstream, upstream.current, deliveringElsewhere ? .none : topUp())
    }

    /// Moves buffered elements into the delivery while it has demand, and hands it the
    /// `.finished` once the buffer is empty. Returns what this caller delivers if it became
    /// the deliverer (`.idle` if someone else is, or nothing has demand).
    @inlinable
    mutating func pull() -> Next {
        var first = Next.idle
        while delivery.demand > .none, let value = buffer.popFirst() {
            if case .deliver = delivery.admit(value) { first = .value(value) }
        }
        if finishing && buffer.isEmpty {
            finishing = false
            if delivery.finish(.finished) { first = .completion(.finished) }
        }
        return first
    }

    /// The upstream demand that brings what is held and asked for up to the strategy's
    /// target; recorded as requested.
    @inlinable
    mutating func topUp() -> Subscribers.Demand {
        guard upstream.isSubscribed, !ended, requested != .unlimited else { return .none }
        let wanted: Subscribers.Demand
        if keepFull {
            let room = size - buffer.count - delivery.queue.count - (requested.max ?? 0)
            wanted = room > 0 ? .max(room) : .none
        } else {
            wanted = .unlimited   // byRequest, as Combine's: everything, at once
        }
        requested += wanted
        return wanted
    }

    /// The upstream completed: the completion to deliver now, if no deliverer is out to deliver it after its
    /// queue. Ignored before the subscription (as in Combine), and after an overflow or a cancel.
    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Downstream? {
        guard !ended, upstream.isSubscribed, let downstream else { return nil }
        ended = true
        _ = upstream.end()
        if case .finished = completion, !buffer.isEmpty {
            finishing = true
            return nil
        }
        buffer = FIFO()
        guard delivery.finish(completion) else { return nil }
        terminate()
        return downstream
    }

    /// Cancelled: what to cancel and release after unlocking. Ignored before the upstream's
    /// subscription, as in Combine: the subscription that comes later is taken.
    @inlinable
    mutating func cancel() -> ((any Subscription)?, Downstream?) {
        guard !upstream.isAwaiting else { return (nil, nil) }
        ended = true
        let released = (upstream.end()?.upstream, downstream)
        buffer = FIFO()
        heldFailure = nil
        delivery.reset()
        downstream = nil
        return released
    }

    /// The completion went out (or is being handed out): nothing more.
    @inlinable
    mutating func terminate() {
        ended = true
        _ = upstream.end()
        buffer = FIFO()
        heldFailure = nil
        downstream = nil
    }
}
