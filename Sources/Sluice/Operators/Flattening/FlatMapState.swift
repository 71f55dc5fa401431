/// The state of one `flatMap` subscription (``FlatMapSubscription``), under its lock.
///
/// Demand follows Combine's flatMap. The upstream is asked for `maxPublishers` elements at subscription, and
/// for one more whenever an inner publisher finishes (unless that is `.unlimited`). Each inner is asked for
/// one value at a time while the downstream's demand is limited, and for `.unlimited` once it is not. A value
/// that arrives with no downstream demand waits in `waiting` (in order of arrival, with the index of its
/// inner, which sent it against its one outstanding demand); when it goes out, its inner is asked for the
/// next. Values with demand go through a ``SerialDelivery``, so that the downstream gets one signal at a time
/// from whichever thread sends.
///
/// Each inner has an index and a ``SubscriptionSlot`` in `inners`, from the upstream value that
/// made it until it finishes; a signal from an index no longer there is ignored.
///
/// ```text
/// active ──upstream finished, no inner left, nothing waiting──▶ finishing (queue, then .finished)
///   │  └──the upstream or an inner failed──▶ finishing (queue, then the failure; everything
///   │                                       else cancelled, waiting values dropped)
///   └──cancel──▶ cancelled (nothing more is delivered)
/// ```
@usableFromInline
struct FlatMapState<Downstream: Subscriber>: FanInState {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias Action = ListedFanInAction<Downstream>

    /// Released on cancel and after the completion goes out.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    @usableFromInline var upstream = SubscriptionSlot.awaiting
    @usableFromInline var upstreamFinished = false
    @usableFromInline let maxPublishers: Subscribers.Demand
    /// The inners not yet finished, by index.
    @usableFromInline var inners = InnerSlots()
    /// Values that arrived without downstream demand, oldest first.
    @usableFromInline var waiting = FIFO<(index: Int, value: Output)>()
    @inlinable var mayHaveWaiting: Bool { !waiting.isEmpty }
    /// The downstream's demand became unlimited: every inner has been asked for `.unlimited`.
    @usableFromInline var unlimited = false
    /// Cancelled, or the completion decided: no value is admitted any more.
    @usableFromInline var ended = false
    /// The thread cancelling the inners after the upstream failed, while it does (0 otherwise):
    /// an upstream completion it brings about there traps, where Combine's flatMap deadlocks.
    @usableFromInline var endingOn: UInt = 0

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand) {
        self.downstream = downstream
        self.maxPublishers = maxPublishers
    }

    // MARK: The upstream

    /// The upstream subscribed. Returns the demand to request (none for `maxPublishers` of
    /// `.none`), or `nil` to cancel it.
    @inlinable
    mutating func attachUpstream(_ subscription: any Subscription) -> Subscribers.Demand? {
        guard !ended, upstream.attach(subscription) else { return nil }
        return maxPublishers
    }

    /// The upstream sent a value: returns the index of the inner to subscribe for it, or `nil`
    /// once the stream has ended (the value is ignored).
    @inlinable
    mutating func reserveInner() -> Int? {
        guard !ended else { return nil }
        return inners.reserve()
    }

    /// What becomes of a `Just`'s value on flatMap's scalar path.
    @usableFromInline
    enum Scalar {
        /// Taken, and the caller became the deliverer: it delivers the value to the downstream,
        /// then asks `next` (the upstream, unless it was asked for all) for one more element.
        case deliver(Downstream, Output, next: (any Subscription)?)
        /// Taken; a deliverer out calling the downstream delivers it after what it holds. The
        /// caller asks `next` for one more element.
        case queued(next: (any Subscription)?)
        /// No demand, or values wait: the `Just` is to be subscribed as any inner is.
        case subscribe
        /// The stream has ended: the element is ignored.
        case ignored
    }

    /// The upstream sent an element whose publisher is a `Just` of `value`: if the downstream has demand and
    /// nothing waits, the value is offered to the delivery as if that inner had sent it and finished (the
    /// caller then requests one more element from the upstream, unless it asked for all).
    @inlinable
    mutating func receiveScalar(_ value: Output) -> Scalar {
        guard !ended, let downstream else { return .ignored }
        guard waiting.isEmpty else { return .subscribe }
        switch delivery.admit(value) {
        case .refused: return .subscribe
        case .queued: return .queued(next: maxPublishers == .unlimited ? nil : upstream.current)
        case .deliver: return .deliver(downstream, value, next: maxPublishers == .unlimited ? nil : upstream.current)
        }
    }

    @inlinable
    mutating func completeUpstream(_ completion: Subscribers.Completion<Failure>) -> Action {
        var action = Action()
        guard !ended else { return action }
        _ = upstream.end()
        switch completion {
        case .finished:
            upstreamFinished = true
            finishIfDone(into: &action)
        case .failure:
            end(with: completion, into: &action)
        }
        return action
    }

    // MARK: The inners

    /// Inner `index` subscribed. Returns the demand to request, or `nil` to cancel it.
    @inlinable
    mutating func attachInner(_ subscription: any Subscription, at index: Int) -> Subscribers.Demand? {
        guard !ended, inners.attach(subscription, at: index) else { return nil }
        return unlimited ? .unlimited : .max(1)
    }

    /// A value that inner `index` sent without demand waits its turn.
    @inlinable
    mutating func keep(_ value: Output, from index: Int) {
        waiting.append((index, value))
    }

    /// Inner `index` completed: a finish lets the upstream send one more; a failure ends it all.
    @inlinable
    mutating func completeInner(_ completion: Subscribers.Completion<Failure>, at index: Int) -> Action {
        var action = Action()
        guard !ended, inners.remove(index) != nil else { return action }
        switch completion {
        case .finished:
            finishIfDone(into: &action)
            if !ended, maxPublishers != .unlimited, let upstream = upstream.current {
                action.requests.append((upstream, .max(1)))
            }
        case .failure:
            end(with: completion, into: &action)
        }
        return action
    }

    /// Spends new demand: the first time it is unlimited, asks every inner for `.unlimited`;
    /// then moves waiting values into the delivery while there is demand (asking each one's
    /// inner for the next), and finishes if that emptied the last of them.
    @inlinable
    mutating func refill(into action: inout Action) {
        if delivery.demand == .unlimited, !unlimited {
            unlimited = true
            for inner in inners.subscriptions { action.requests.append((inner, .unlimited)) }
        }
        while delivery.demand > 0, let (index, value) = waiting.popFirst() {
            // Not refused: there is demand, and no completion yet.
            _ = action.offer(value, to: &delivery, downstream: downstream)
            if !unlimited, let inner = inners[index]?.current { action.requests.append((inner, .max(1))) }
        }
        finishIfDone(into: &action)
    }

    @inlinable
    mutating func finishIfDone(into action: inout Action) {
        guard !ended, upstreamFinished, inners.isEmpty, waiting.isEmpty else { return }
        end(with: .finished, into: &action)
    }

    /// Ends the upstream and every inner, dropping waiting values; returns what was subscribed.
    @inlinable
    mutating func endUpstreams() -> [any Subscription] {
        ended = true
        var subscriptions = inners.subscriptions
        if let upstream = upstream.end()?.upstream { subscriptions.append(upstream) }
        inners = InnerSlots()
        waiting = FIFO()
        return subscriptions
    }
}
