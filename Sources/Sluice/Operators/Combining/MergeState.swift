/// The state of one merge subscription (``MergeSubscription``), under its lock.
///
/// Demand follows Combine's merge: each upstream is asked for one value at a time while the
/// downstream's demand is limited (for `.unlimited` from the first unlimited request on). A
/// value that arrives with no downstream demand waits in its upstream's one-value slot, and
/// that upstream is asked for another only once the slot is delivered; so nothing is lost and
/// at most one value per upstream waits. Values with demand go through a ``SerialDelivery``,
/// so that the downstream gets one signal at a time from whichever thread sends.
///
/// ```text
/// active ──every upstream finished, slots empty──▶ finishing (queue, then .finished)
///   │  └──an upstream failed──▶ finishing (queue, then the failure; the others cancelled,
///   │                           and values still waiting for demand dropped, as in Combine)
///   └──cancel──▶ cancelled (nothing more is delivered)
/// ```
@usableFromInline
struct MergeState<Downstream: Subscriber>: FanInState {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Released on cancel and after the completion goes out.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    /// Each upstream's subscription, from its arrival until it finishes or is cancelled.
    @usableFromInline var upstreams: [SubscriptionSlot]
    /// Each upstream's value that arrived without downstream demand.
    @usableFromInline var slots: [Output?]
    @usableFromInline var finishedCount = 0
    @usableFromInline var unlimited = false
    /// Cancelled, or the completion decided: no value is admitted any more.
    @usableFromInline var ended = false

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        upstreams = Array(repeating: .awaiting, count: count)
        slots = Array(repeating: nil, count: count)
    }

    /// What the caller does after unlocking.
    @usableFromInline typealias Action = ListedFanInAction<Downstream>

    /// Upstream `index` subscribed. Returns the demand to request, or `nil` to cancel it.
    @inlinable
    mutating func attach(_ subscription: any Subscription, at index: Int) -> Subscribers.Demand? {
        guard !ended, upstreams[index].attach(subscription) else { return nil }
        return unlimited ? .unlimited : .max(1)
    }

    /// A value that upstream `index` sent without demand waits in its slot.
    @inlinable
    mutating func keep(_ value: Output, from index: Int) {
        slots[index] = value
    }

    /// Spends new demand: the first time it is unlimited, asks every upstream for `.unlimited`; then moves
    /// waiting slot values into the delivery while there is demand (asking each such upstream for the next),
    /// and finishes if every upstream has and nothing waits.
    @inlinable
    mutating func refill(into action: inout Action) {
        if delivery.demand == .unlimited, !unlimited {
            unlimited = true
            action.requests += upstreams.compactMap { $0.current.map { ($0, .unlimited) } }
        }
        for index in slots.indices where delivery.demand > 0 {
            guard let value = slots[index] else { continue }
            slots[index] = nil
            if !action.offer(value, to: &delivery, downstream: downstream) { slots[index] = value }
            if !unlimited, let upstream = upstreams[index].current { action.requests.append((upstream, .max(1))) }
        }
        finishIfDone(into: &action)
    }

    @inlinable
    mutating func finishIfDone(into action: inout Action) {
        guard !ended, finishedCount == upstreams.count, slots.allSatisfy({ $0 == nil }) else { return }
        end(with: .finished, into: &action)
    }

    /// A merge of no publisher finishes at once, as Combine's does.
    @inlinable
    mutating func finishWithNoUpstream() -> Action {
        var action = Action()
        finishIfDone(into: &action)
        return action
    }

    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<Failure>, at index: Int) -> Action {
        var action = Action()
        guard !ended else { return action }
        switch completion {
        case .finished:
            _ = upstreams[index].end()
            finishedCount += 1
            finishIfDone(into: &action)
        case .failure:
            _ = upstreams[index].end()
            end(with: completion, into: &action)
        }
        return action
    }

    /// Lets go of every upstream and every waiting value; returns the upstreams still subscribed.
    @inlinable
    mutating func endUpstreams() -> [any Subscription] {
        ended = true
        let subscriptions = upstreams.indices.compactMap { upstreams[$0].end()?.upstream }
        slots = slots.map { _ in nil }
        return subscriptions
    }
}
