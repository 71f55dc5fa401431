/// The state of one merge subscription (``MergeSubscription``), under its lock.
///
/// Demand follows Combine's merge: each upstream is asked for one value at a time while the
/// downstream's demand is limited (for `.unlimited` from the first unlimited request on). A
/// value that arrives with no downstream demand waits in its upstream's one-value slot, and
/// that upstream is asked for another only once the slot is delivered; so nothing is lost and
/// at most one value per upstream waits. Values with demand go through a ``SerialDelivery``,
/// so that the downstream gets one signal at a time from whichever thread sends.
///
/// ```
/// active ──every upstream finished, slots empty──▶ finishing (queue, then .finished)
///   │  └──an upstream failed──▶ finishing (queue, then the failure; the others cancelled,
///   │                           and values still waiting for demand dropped, as in Combine)
///   └──cancel──▶ cancelled (nothing more is delivered)
/// ```
@usableFromInline
struct MergeState<Downstream: Subscriber> {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Released on cancel and after the completion goes out.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    /// Each upstream's subscription, from its arrival until it finishes or is cancelled.
    @usableFromInline var upstreams: [(any Subscription)?]
    /// Each upstream's value that arrived without downstream demand.
    @usableFromInline var slots: [Output?]
    @usableFromInline var finishedCount = 0
    @usableFromInline var unlimited = false
    /// Cancelled, or the completion decided: no value is admitted any more.
    @usableFromInline var ended = false

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        upstreams = Array(repeating: nil, count: count)
        slots = Array(repeating: nil, count: count)
    }

    /// What the caller does after unlocking.
    @usableFromInline
    struct Action {
        /// Deliver this value: the caller became the deliverer.
        @usableFromInline var deliver: (Downstream, Output)?
        /// Deliver this completion: nothing is being delivered.
        @usableFromInline var complete: (Downstream, Subscribers.Completion<Failure>)?
        /// Upstreams to ask for more, and how much.
        @usableFromInline var requests = Requests()
        /// Upstreams to cancel.
        @usableFromInline var cancels: [any Subscription] = []

        @inlinable init() {}
    }

    /// Requests to make after unlocking: usually one (the upstream whose waiting value was
    /// delivered), held inline so that a request of one element allocates nothing.
    @usableFromInline
    struct Requests {
        @usableFromInline var first: (any Subscription, Subscribers.Demand)?
        @usableFromInline var rest: [(any Subscription, Subscribers.Demand)] = []
        @inlinable init() {}

        @inlinable
        mutating func append(_ request: (any Subscription, Subscribers.Demand)) {
            if first == nil { first = request } else { rest.append(request) }
        }

        @inlinable
        func make() {
            guard let (upstream, demand) = first else { return }
            upstream.request(demand)
            for (upstream, demand) in rest { upstream.request(demand) }
        }
    }

    /// Upstream `index` subscribed. Returns the demand to request, or `nil` to cancel it.
    @inlinable
    mutating func attach(_ subscription: any Subscription, at index: Int) -> Subscribers.Demand? {
        guard !ended, upstreams[index] == nil else { return nil }
        upstreams[index] = subscription
        return unlimited ? .unlimited : .max(1)
    }

    /// Upstream `index` sent `value`. Returns what to do, and the demand to return upstream.
    @inlinable
    mutating func receive(_ value: Output, at index: Int) -> (Action, Subscribers.Demand) {
        var action = Action()
        guard !ended, let downstream else { return (action, .none) }
        switch delivery.admit(value) {
        case .refused:
            slots[index] = value
            return (action, .none)
        case .queued:
            break
        case .deliver:
            action.deliver = (downstream, value)
        }
        return (action, unlimited ? .none : .max(1))
    }

    /// The downstream asked for `demand`.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Action {
        var action = Action()
        guard !ended else { return action }
        delivery.demand += demand
        if demand == .unlimited, !unlimited {
            unlimited = true
            for upstream in upstreams { if let upstream { action.requests.append((upstream, .unlimited)) } }
        }
        refill(into: &action)
        return action
    }

    /// The deliverer is back with `more` demand from the downstream.
    @inlinable
    mutating func delivered(more: Subscribers.Demand) -> (Action, SerialDelivery<Output, Failure>.Next) {
        var action = Action()
        guard downstream != nil else { return (action, .idle) }  // cancelled meanwhile
        delivery.demand += more
        refill(into: &action)
        let next = delivery.next(adding: .none)
        if case .completion = next { downstream = nil }
        return (action, next)
    }

    /// Moves waiting slot values into the delivery while there is demand (asking each such
    /// upstream for the next), then finishes if every upstream has and nothing waits.
    @inlinable
    mutating func refill(into action: inout Action) {
        for index in slots.indices where delivery.demand > 0 {
            guard let value = slots[index] else { continue }
            slots[index] = nil
            switch delivery.admit(value) {
            case .deliver: action.deliver = downstream.map { ($0, value) }
            case .queued: break
            case .refused: slots[index] = value
            }
            if !unlimited, let upstream = upstreams[index] { action.requests.append((upstream, .max(1))) }
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

    /// Upstream `index` completed.
    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<Failure>, at index: Int) -> Action {
        var action = Action()
        guard !ended else { return action }
        switch completion {
        case .finished:
            upstreams[index] = nil
            finishedCount += 1
            finishIfDone(into: &action)
        case .failure:
            upstreams[index] = nil
            action.cancels = upstreams.compactMap { $0 }
            end(with: completion, into: &action)
        }
        return action
    }

    /// The completion goes out now, or after the values the deliverer still holds.
    @inlinable
    mutating func end(with completion: Subscribers.Completion<Failure>, into action: inout Action) {
        ended = true
        upstreams = upstreams.map { _ in nil }
        slots = slots.map { _ in nil }
        if delivery.finish(completion), let downstream {
            self.downstream = nil
            action.complete = (downstream, completion)
        }
    }

    /// The downstream cancelled: returns the upstreams to cancel and the downstream to release.
    @inlinable
    mutating func cancel() -> ([any Subscription], Downstream?) {
        ended = true
        let cancels = upstreams.compactMap { $0 }
        upstreams = upstreams.map { _ in nil }
        slots = slots.map { _ in nil }
        delivery.reset()
        defer { downstream = nil }
        return (cancels, downstream)
    }
}
