/// What an operator that gathers values from several upstreams does after unlocking, as decided
/// by its state under the lock (rule 6). `Requests` is how it asks its upstreams for more:
/// `merge`, `flatMap` and `switchToLatest` list them (``UpstreamRequests``), `zip` and
/// `combineLatest` pass the downstream's demand to each (`TupleRequests`).
@usableFromInline
struct FanInAction<Downstream: Subscriber, Requests: FanInRequests> {
    /// Deliver this value: the caller became the deliverer of the state's ``SerialDelivery``.
    @usableFromInline var deliver: (Downstream, Downstream.Input)?
    /// Deliver this completion: nothing is being delivered.
    @usableFromInline var complete: (Downstream, Subscribers.Completion<Downstream.Failure>)?
    @usableFromInline var requests = Requests()
    @usableFromInline var cancels: [any Subscription] = []
    /// A value was queued over the bound of the hand-over: the sender may have to wait
    /// (see ``SerialDelivery``).
    @usableFromInline var holds = false

    @inlinable init() {}
}

/// The action of `merge`, `flatMap` and `switchToLatest`, whose requests are a list.
@usableFromInline typealias ListedFanInAction<Downstream: Subscriber> = FanInAction<Downstream, UpstreamRequests>

/// The requests part of a ``FanInAction``, empty to begin with.
@usableFromInline
protocol FanInRequests {
    init()
}

/// Requests to make after unlocking: usually one (the upstream whose waiting value was delivered), held
/// inline so that a request of one element through `values` allocates nothing.
@usableFromInline
struct UpstreamRequests: FanInRequests {
    @usableFromInline var first: (any Subscription, Subscribers.Demand)?
    @usableFromInline var rest: [(any Subscription, Subscribers.Demand)] = []
    @inlinable init() {}

    @inlinable
    mutating func append(_ request: (any Subscription, Subscribers.Demand)) {
        if first == nil { first = request } else { rest.append(request) }
    }

    @inlinable
    static func += (requests: inout UpstreamRequests, more: [(any Subscription, Subscribers.Demand)]) {
        for request in more { requests.append(request) }
    }

    @inlinable
    func make() {
        guard let (upstream, demand) = first else { return }
        upstream.request(demand)
        for (upstream, demand) in rest { upstream.request(demand) }
    }
}

/// The state of an operator whose downstream gets values from several upstreams, on any threads, one at a
/// time: the downstream and the ``SerialDelivery`` in between. Ending and cancelling are the same for all of
/// them (`merge`, `flatMap`, `switchToLatest`, `zip`, `combineLatest`, `prefix(untilOutputFrom:)`) and
/// written once below.
@usableFromInline
protocol FanInEnd {
    associatedtype Downstream: Subscriber

    /// Released on cancel and after the completion goes out.
    var downstream: Downstream? { get set }
    var delivery: SerialDelivery<Downstream.Input, Downstream.Failure> { get set }

    /// Admits no value any more, and lets go of every upstream subscription and every kept value; returns
    /// the subscriptions, for the caller to cancel after unlocking.
    mutating func endUpstreams() -> [any Subscription]
}

extension FanInEnd {
    /// Ends the stream with `completion`: the upstreams still subscribed, to cancel, and the completion to
    /// deliver now (`nil` when a deliverer is out: it delivers it after the values it still holds).
    @inlinable
    mutating func finish(
        with completion: Subscribers.Completion<Downstream.Failure>
    ) -> (cancels: [any Subscription], complete: (Downstream, Subscribers.Completion<Downstream.Failure>)?) {
        let cancels = endUpstreams()
        guard delivery.finish(completion), let downstream else { return (cancels, nil) }
        self.downstream = nil
        return (cancels, (downstream, completion))
    }

    /// The downstream cancelled: returns the subscriptions to cancel and the downstream to release, both
    /// after unlocking.
    @inlinable
    mutating func cancel() -> ([any Subscription], Downstream?) {
        delivery.reset()
        defer { downstream = nil }
        return (endUpstreams(), downstream)
    }
}

/// A fan-in whose deliverer's return is handled by the shared loop (``Locked/drain(_:to:)``); `merge` and
/// `flatMap` also share their demand rule (``FanInState``), `switchToLatest` has its own.
@usableFromInline
protocol SerialFanIn: FanInEnd {
    /// Cancelled, or the completion decided (``FanInEnd/endUpstreams()`` sets it): no value is
    /// admitted any more.
    var ended: Bool { get }

    /// The deliverer is back with `more` demand from the downstream: the upstreams to ask for
    /// more, and what it delivers next.
    mutating func delivered(more: Subscribers.Demand)
        -> (UpstreamRequests, SerialDelivery<Downstream.Input, Downstream.Failure>.Next)
}

extension SerialFanIn {
    /// The completion goes out now, or after the values the deliverer still holds; every
    /// upstream still subscribed is cancelled, and kept values are dropped.
    @inlinable
    mutating func end(
        with completion: Subscribers.Completion<Downstream.Failure>,
        into action: inout ListedFanInAction<Downstream>
    ) {
        (action.cancels, action.complete) = finish(with: completion)
    }
}

/// The demand rule `merge` and `flatMap` share, Combine's: while the downstream's demand is
/// limited each upstream has one value requested at a time, and a value without demand is kept
/// until there is (``keep(_:from:)``, ``refill(into:)``).
@usableFromInline
protocol FanInState: SerialFanIn {
    /// The downstream's demand became unlimited, and every upstream was asked for as much.
    var unlimited: Bool { get }

    /// Keeps a value that upstream `index` sent without downstream demand, until there is.
    mutating func keep(_ value: Downstream.Input, from index: Int)

    /// Spends the delivery's demand on the values waiting for it (asking their upstreams for
    /// more), and finishes the stream if nothing is left to wait for.
    mutating func refill(into action: inout ListedFanInAction<Downstream>)

    /// Whether values may be waiting for demand (`true` when not known cheaply): when none
    /// is, a deliverer coming back with limited demand has nothing to refill.
    var mayHaveWaiting: Bool { get }
}

extension FanInState {
    @inlinable var mayHaveWaiting: Bool { true }
}

extension FanInState {
    /// Upstream `index` sent `value`: what to do, and the demand to return to it (`.max(1)` for a value
    /// taken against limited demand; none for one kept, until it goes out).
    @inlinable
    mutating func receive(
        _ value: Downstream.Input,
        at index: Int
    ) -> (ListedFanInAction<Downstream>, Subscribers.Demand) {
        var action = ListedFanInAction<Downstream>()
        guard !ended, let downstream else { return (action, .none) }
        guard action.offer(value, to: &delivery, downstream: downstream) else {
            keep(value, from: index)
            return (action, .none)
        }
        return (action, unlimited ? .none : .max(1))
    }

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> ListedFanInAction<Downstream> {
        var action = ListedFanInAction<Downstream>()
        guard !ended else { return action }
        delivery.demand += demand
        refill(into: &action)
        return action
    }

    /// The deliverer is back with `more` demand from the downstream: what to do, and what it delivers next.
    ///
    /// With nothing waiting and the demand not newly unlimited, there is nothing to refill
    /// (and nothing to finish: the stream ends when its last waiting value goes out, in
    /// ``refill(into:)``), so the common return costs no action.
    @inlinable
    mutating func delivered(more: Subscribers.Demand)
        -> (UpstreamRequests, SerialDelivery<Downstream.Input, Downstream.Failure>.Next)
    {
        guard downstream != nil else { return (UpstreamRequests(), .idle) }  // cancelled meanwhile
        delivery.demand += more
        var requests = UpstreamRequests()
        if mayHaveWaiting || (delivery.demand == .unlimited && !unlimited) {
            // While delivering, a refill only queues values and asks for more; the stream's
            // end goes out through `next` below, after the queue.
            var action = ListedFanInAction<Downstream>()
            refill(into: &action)
            requests = action.requests
        }
        let next = delivery.next(adding: .none)
        if case .completion = next { downstream = nil }
        return (requests, next)
    }
}

extension Locked where State: FanInEnd {
    /// The downstream cancelled: cancels every upstream still subscribed, and releases the
    /// downstream, after unlocking. (Named for the fan-in, not the lock, which it only takes.)
    @inlinable
    func cancelFanIn() {
        let (subscriptions, downstream) = withLock { $0.cancel() }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        for subscription in subscriptions { subscription.cancel() }
    }
}

extension Locked where State: SerialFanIn {
    /// Carries out `action` after unlocking: cancels, then the completion, then requests; if it made this
    /// thread the deliverer, delivers until nothing is left (values admitted meanwhile by other threads, then
    /// a completion kept for it). Requests made while delivering find the delivery busy, so an upstream that
    /// sends inside `request` queues its value instead of recursing into the downstream: the stack stays flat
    /// (rule 5). A value queued over the bound makes its sender wait here, after the rest, while the queue
    /// stays over it for a deliverer on another thread (see ``SerialDelivery``).
    @inlinable
    func perform(_ action: ListedFanInAction<State.Downstream>) {
        for upstream in action.cancels { upstream.cancel() }
        if let (downstream, completion) = action.complete { downstream.receive(completion: completion) }
        action.requests.make()
        if let (downstream, first) = action.deliver { drain(.value(first), to: downstream) }
        if action.holds { holdSender { state, sender in state.delivery.holdCondition(for: sender) } }
    }

    /// The deliverer's loop (``Locked/deliver(_:to:delivered:carryOut:)``) with the fan-in's
    /// state: what it hands back after each value is requests.
    @inlinable
    func drain(
        _ next: SerialDelivery<State.Downstream.Input, State.Downstream.Failure>.Next, to downstream: State.Downstream
    ) {
        deliver(next, to: downstream, delivered: { $0.delivered(more: $1) }, carryOut: { $0.make() })
    }
}

extension FanInAction {
    /// Offers `value` to `delivery`: if that makes the caller the deliverer, this action
    /// delivers it. Returns `false` if it was refused for want of demand (the caller keeps it).
    @inlinable
    mutating func offer(
        _ value: Downstream.Input, to delivery: inout SerialDelivery<Downstream.Input, Downstream.Failure>,
        downstream: Downstream?
    ) -> Bool {
        switch delivery.admit(value) {
        case .refused: return false
        case .queued:
            holds = holds || delivery.isOverBound
            return true
        case .deliver:
            deliver = downstream.map { ($0, value) }
            return true
        }
    }
}
