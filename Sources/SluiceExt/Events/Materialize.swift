import Sluice

extension Publishers {
    /// A publisher that delivers its upstream's signals as values (CombineExt's `materialize()`): each value as
    /// `.value`, then the ending as `.finished` or `.failure`, then a plain finish. It never fails.
    ///
    /// Demand passes through one for one. The ending event is a value too: if the upstream ends while the
    /// downstream has no demand, the event (and the finish after it) goes out with the next request.
    public struct Materialize<Upstream: Publisher>: Publisher {
        public typealias Output = Event<Upstream.Output, Upstream.Failure>
        public typealias Failure = Never

        /// The publisher whose signals are materialized.
        public let upstream: Upstream

        /// Creates the publisher; prefer `materialize()`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the upstream through the conversion.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(MaterializeSubscription(downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Delivers this publisher's values, and its completion, as ``Event`` values; see `Publishers.Materialize`.
    public func materialize() -> Publishers.Materialize<Self> {
        Publishers.Materialize(upstream: self)
    }
}

/// The subscription of a `Publishers.Materialize`. It counts the downstream's outstanding demand so that the
/// ending event, which needs a unit of it, waits for a request when there is none.
///
/// ```text
/// running ──upstream ends, demand > 0──────────────────▶ ended (event + finish delivered)
///    └──upstream ends, no demand──▶ holding the event ──request──▶ ended
/// cancel: ended from any state, delivering nothing more
/// ```
final class MaterializeSubscription<UpstreamOutput, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == Event<UpstreamOutput, UpstreamFailure>, Downstream.Failure == Never {
    typealias Input = UpstreamOutput
    typealias Failure = UpstreamFailure

    struct State {
        var downstream: Downstream?
        var upstream: (any Subscription)?
        var demand = Subscribers.Demand.none
        /// The upstream ended while the downstream had no demand.
        var held: Event<UpstreamOutput, UpstreamFailure>?
        var ended = false
    }

    let state: Locked<State>

    init(downstream: Downstream) {
        state = Locked(State(downstream: downstream))
    }

    func receive(subscription: any Subscription) {
        let (accepted, downstream) = state.withLock { state -> (Bool, Downstream?) in
            guard !state.ended, state.upstream == nil, let downstream = state.downstream else { return (false, nil) }
            state.upstream = subscription
            return (true, downstream)
        }
        guard accepted, let downstream else { return subscription.cancel() }
        downstream.receive(subscription: self)
    }

    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.ended, state.held == nil else { return nil }
            if state.demand > .none { state.demand -= 1 }
            return state.downstream
        }
        guard let downstream else { return .none }
        let more = downstream.receive(.value(input))
        if more > .none { state.withLock { $0.demand += more } }
        return more
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let event: Event<UpstreamOutput, UpstreamFailure>
        switch completion {
        case .finished: event = .finished
        case .failure(let failure): event = .failure(failure)
        }
        let downstream = state.withLock { state -> Downstream? in
            guard !state.ended, state.held == nil else { return nil }
            state.upstream = nil
            guard state.demand > .none else {
                state.held = event
                return nil
            }
            return state.takeDownstream()
        }
        if let downstream { deliverEnd(event, to: downstream) }
    }

    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let (upstream, end) = state.withLock {
            state -> ((any Subscription)?, (Event<UpstreamOutput, UpstreamFailure>, Downstream)?) in
            guard !state.ended else { return (nil, nil) }
            state.demand += demand
            if let held = state.held, let downstream = state.takeDownstream() { return (nil, (held, downstream)) }
            return (state.upstream, nil)
        }
        if let (event, downstream) = end {
            deliverEnd(event, to: downstream)
        } else {
            upstream?.request(demand)
        }
    }

    func cancel() {
        let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
            guard !state.ended else { return (nil, nil) }
            defer { state.upstream = nil }
            return (state.upstream, state.takeDownstream())
        }
        upstream?.cancel()
        withExtendedLifetime(downstream) {}  // released after unlocking
    }

    func deliverEnd(_ event: Event<UpstreamOutput, UpstreamFailure>, to downstream: Downstream) {
        _ = downstream.receive(event)
        downstream.receive(completion: .finished)
    }

    var description: String { "Materialize" }
}

extension MaterializeSubscription.State {
    /// Ends the stream: lets go of the downstream (returned) and of a held event.
    mutating func takeDownstream() -> Downstream? {
        ended = true
        held = nil
        defer { downstream = nil }
        return downstream
    }
}
