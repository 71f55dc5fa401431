/// The state of one `zip` or `combineLatest` subscription (``TupleSubscription``), under its
/// lock. `Row` holds the upstreams' values and decides which of the two it is.
///
/// Demand follows Combine: every upstream is asked for what the downstream asks (by `request(_:)` or by the
/// demand it returns), so that no upstream sends more than the downstream could take.
/// - `zip` keeps each upstream's unmatched values in order and makes a tuple as soon as every
///   upstream has one and the downstream has demand (or, as in Combine, when a value that an
///   upstream sent beyond what it was asked for completes one); it finishes once an upstream has
///   finished and every value it sent has been matched (no tuple can be made any more).
/// - `combineLatest` keeps each upstream's latest value; a value that arrives once every
///   upstream has sent one makes a tuple if the downstream has demand, else it is only
///   remembered (as in Combine, a later request does not send it); it finishes once every
///   upstream has finished.
/// Tuples go through a ``SerialDelivery``, so that the downstream gets one signal at a time
/// from whichever thread sends. The first failure cancels the other upstreams and fails the
/// stream after the tuples already admitted.
@usableFromInline
struct TupleState<Row: TupleRow, Downstream: Subscriber>: FanInEnd where Row.Output == Downstream.Input {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Released on cancel and after the completion goes out.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    @usableFromInline var row: Row
    /// Each upstream's subscription, from its arrival until it completes or is cancelled.
    @usableFromInline var upstreams: [SubscriptionSlot]
    @usableFromInline var finished: [Bool]
    /// All the downstream has asked for, which every upstream is asked for in turn.
    @usableFromInline var requested = Subscribers.Demand.none
    /// Cancelled, or the completion decided.
    @usableFromInline var ended = false
    /// `zip`: the upstream in whose `receive(_:)` the deliverer is delivering, while it is.
    @usableFromInline var deliveringFor: Int?
    /// `zip`: demand the downstream requested from inside that delivery, on its thread. That
    /// upstream gets it back from its `receive(_:)` rather than by a request, as Combine's zip
    /// does; the other upstreams are asked as usual.
    @usableFromInline var senderShare = Subscribers.Demand.none

    @inlinable
    init(downstream: Downstream, row: Row) {
        self.downstream = downstream
        self.row = row
        upstreams = Array(repeating: .awaiting, count: row.arity)
        finished = Array(repeating: false, count: row.arity)
    }

    /// What the caller does after unlocking.
    @usableFromInline typealias Action = FanInAction<Downstream, TupleRequests>

    /// Upstream `index` subscribed: the demand to ask it for (`.none` for nothing yet), or
    /// `nil` to cancel it.
    @inlinable
    mutating func attach(_ subscription: any Subscription, at index: Int) -> Subscribers.Demand? {
        guard !ended, upstreams[index].attach(subscription) else { return nil }
        return requested
    }

    @inlinable
    mutating func receive<T>(_ value: T, at index: Int) -> Action {
        var action = Action()
        guard !ended else { return action }
        row.store(value, at: index)
        if Row.consumes {
            combine(into: &action)
            if row.isFull, !ended, !delivery.isFinishing {
                // Only an upstream that sent more than it was asked for fills the row without
                // demand: Combine's zip delivers that tuple anyway, and so does this one.
                delivery.demand += 1
                admit(row.take(), into: &action)
            }
            if action.deliver != nil { deliveringFor = index }
        } else if row.isFull, delivery.demand > 0 {
            admit(row.take(), into: &action)
        }
        return action
    }

    /// The downstream asked for `demand`, or `returned` it from a delivery. `zip` asks every
    /// upstream for either, as each tuple takes a value from each; `combineLatest` asks only
    /// the upstream in whose `receive(_:)` the tuple is delivered (its sender, unless tuples
    /// from several threads queued up) for the returned demand, as Combine asks the sender; so
    /// no upstream is asked for more than the downstream could take. Once `.unlimited` was
    /// asked, `zip` still passes each request on (as Combine's does); nothing else is asked.
    @inlinable
    mutating func add(_ demand: Subscribers.Demand, returned: Bool = false, into action: inout Action) {
        guard !ended, demand > 0 else { return }
        delivery.demand += demand
        if requested != .unlimited || (Row.consumes && !returned) {
            action.requests.ask = (demand, upstreams, returned && !Row.consumes)
            if !returned, let sender = deliveringFor, delivery.deliverer == currentThreadIdentity() {
                action.requests.skips = sender
                senderShare += demand
            }
        }
        if !(returned && !Row.consumes) { requested += demand }
        combine(into: &action)
    }

    /// The deliverer is back with `more` demand from the downstream.
    @inlinable
    mutating func delivered(more: Subscribers.Demand) -> (Action, SerialDelivery<Output, Failure>.Next) {
        var action = Action()
        guard downstream != nil else { return (action, .idle) }  // cancelled meanwhile
        add(more, returned: true, into: &action)
        action.requests.senderShare = senderShare
        senderShare = .none
        let next = delivery.next(adding: .none)
        switch next {
        case .value: break
        case .completion: downstream = nil; deliveringFor = nil
        case .idle: deliveringFor = nil
        }
        return (action, next)
    }

    /// `zip`: makes tuples while every upstream has a value and the downstream has demand,
    /// then finishes if a finished upstream has nothing left to match.
    @inlinable
    mutating func combine(into action: inout Action) {
        guard Row.consumes else { return }
        while delivery.demand > 0, row.isFull { admit(row.take(), into: &action) }
        if finished.indices.contains(where: { finished[$0] && row.isEmpty(at: $0) }) {
            end(with: .finished, into: &action)
        }
    }

    @inlinable
    mutating func admit(_ tuple: Output, into action: inout Action) {
        _ = action.offer(tuple, to: &delivery, downstream: downstream)
    }

    /// A failure of `zip`'s cancels every upstream, the failed one included, as Combine's does.
    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<Failure>, at index: Int) -> Action {
        var action = Action()
        guard !ended else { return action }
        switch completion {
        case .failure:
            // zip keeps the failed upstream's slot, so that `end(with:)` cancels it with the others.
            if !Row.consumes { _ = upstreams[index].end() }
            end(with: completion, into: &action)
        case .finished:
            _ = upstreams[index].end()
            finished[index] = true
            if Row.consumes {
                combine(into: &action)
            } else if !finished.contains(false) {
                end(with: .finished, into: &action)
            }
        }
        return action
    }

    /// The completion goes out now, or after the tuples the deliverer still holds; the
    /// upstreams still subscribed are cancelled.
    @inlinable
    mutating func end(with completion: Subscribers.Completion<Failure>, into action: inout Action) {
        action.requests.ask = nil
        (action.cancels, action.complete) = finish(with: completion)
    }

    /// Admits nothing more, drops the row, and lets go of the upstreams still subscribed.
    @inlinable
    mutating func endUpstreams() -> [any Subscription] {
        ended = true
        row.clear()
        return upstreams.indices.compactMap { upstreams[$0].end()?.upstream }
    }
}

/// How a `zip` or `combineLatest` asks its upstreams for more, after unlocking: each for the
/// same demand (``TupleSubscription/carryOut(_:for:returning:)``).
@usableFromInline
struct TupleRequests: FanInRequests {
    /// Ask every upstream subscribed in `upstreams` for `demand`, or (`onlySender`) only the one
    /// whose value made the tuple that returned it.
    @usableFromInline var ask: (demand: Subscribers.Demand, upstreams: [SubscriptionSlot], onlySender: Bool)?
    /// `zip`: the upstream that `ask` skips, as its share goes to ``TupleState/senderShare``.
    @usableFromInline var skips: Int?
    /// `zip`: demand for the deliverer's sender to return from its `receive(_:)`.
    @usableFromInline var senderShare = Subscribers.Demand.none
    @inlinable init() {}
}
