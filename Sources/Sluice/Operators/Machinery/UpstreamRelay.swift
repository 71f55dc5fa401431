/// The downstream's subscription for an operator whose upstream can be replaced while the
/// downstream's outstanding demand is kept: `catch` and `tryCatch` (the handler's publisher
/// after a failure), `retry` (the same publisher again), `append`/`prepend` (the suffix after
/// the prefix). The operators that end with a value of their own, which needs demand
/// (`replaceError`, `replaceEmpty`, the last array of `collect(_:)`), use it with one upstream.
///
/// The operator subscribes it to an upstream with ``subscribe(_:then:)``; when that upstream
/// completes, the `then` closure decides, outside the lock: ``subscribe(_:then:)`` the next
/// one, ``complete(_:)``, or ``finish(sending:)``. The downstream gets the relay as its
/// subscription once, when the first upstream's subscription arrives. It counts the
/// downstream's outstanding demand, so each later upstream is asked at once for what the
/// downstream still wants; requests that come between two upstreams wait for the next one.
/// A cancel reaches whichever upstream is current, and one subscribing at that moment is
/// cancelled as soon as its subscription arrives.
///
/// Every decision is made under one lock by ``UpstreamRelayState`` (where the states are
/// drawn); the calls to the downstream, the upstreams and the operator's closures are made
/// after it (rule 6). Signals stay serial (rule 3): an upstream is subscribed only after the
/// last one completed. Recursion stays bounded (rule 5): subscribes that would nest (an
/// upstream failing inside `subscribe`) run one after the other in a loop.
///
/// `demandScale` multiplies each demand before it goes upstream (`collect(3)` asks for three
/// values per array); `trapsOnZeroDemand` makes `request(.none)` trap, as in the Combine
/// operators that do (rule 7), instead of passing it to the upstream.
final class UpstreamRelay<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    let combineIdentifier = CombineIdentifier()
    let description: String
    private let state: Locked<UpstreamRelayState<Downstream>>
    private let demandScale: Int
    private let trapsOnZeroDemand: Bool

    init(name: String, downstream: Downstream, demandScale: Int = 1, trapsOnZeroDemand: Bool) {
        description = name
        state = Locked(UpstreamRelayState(downstream: downstream))
        self.demandScale = demandScale
        self.trapsOnZeroDemand = trapsOnZeroDemand
    }

    // MARK: The operator's calls

    /// Subscribes to `publisher`; `then` runs once when it completes (not after a cancel).
    /// Does nothing once the relay has terminated.
    func subscribe<P: Publisher>(
        _ publisher: P, then: @escaping (Subscribers.Completion<P.Failure>) -> Void
    ) where P.Output == Downstream.Input {
        connect { token in publisher.subscribe(RelaySubscriber(relay: self, token: token, then: then)) }
    }

    /// Runs `subscribe` with the number the next upstream's subscriber must give the relay,
    /// on the trampoline (see ``UpstreamRelayState``).
    func connect(_ subscribe: @escaping (Int) -> Void) {
        guard case .run(var next) = state.withLock({ $0.connect(subscribe) }) else { return }
        while true {
            next.subscribe(next.token)
            guard let queued = state.withLock({ $0.nextConnect() }) else { return }
            next = queued
        }
    }

    /// Passes `completion` downstream and terminates.
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        state.withLock { $0.complete() }?.receive(completion: completion)
    }

    /// Sends `value`, then `.finished`; if the downstream has no outstanding demand, holds
    /// them until its next request.
    func finish(sending value: Downstream.Input) {
        guard case .send(let downstream, let value) = state.withLock({ $0.finishSending(value) }) else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    /// Whether a value has reached the downstream.
    var hasDelivered: Bool { state.withLock { $0.delivered } }

    // MARK: The current upstream's signals (through its subscriber)

    func receive(subscription: any Subscription, token: Int) {
        switch state.withLock({ $0.attach(subscription, token: token) }) {
        case .reject:
            subscription.cancel()
        case .subscribeDownstream(let downstream):
            downstream.receive(subscription: self)
        case .carry(let demand):
            if demand > .none { subscription.request(demand * demandScale) }
        }
    }

    /// Sends `value` if it is from the current upstream and has demand; returns the demand
    /// for that upstream to add.
    func receive(_ value: Downstream.Input, token: Int) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.takeDemandForValue(token: token) }) else { return .none }
        let more = downstream.receive(value)
        guard more > .none else { return .none }
        state.withLock { $0.add(more) }
        return more * demandScale
    }

    /// Whether a completion from upstream `token` is the current upstream's: the caller then
    /// runs the operator's `then`.
    func upstreamCompleted(token: Int) -> Bool {
        state.withLock { $0.upstreamCompleted(token: token) }
    }

    // MARK: Subscription (the downstream's calls)

    func request(_ demand: Subscribers.Demand) {
        if demand == .none && trapsOnZeroDemand { Violation.zeroDemandRequested() }
        switch state.withLock({ $0.request(demand) }) {
        case .forward(let upstream):
            upstream.request(demand * demandScale)
        case .send(let downstream, let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .none:
            break
        }
    }

    func cancel() {
        guard let ended = state.withLock({ $0.cancel() }) else { return }
        // The downstream and a queued subscribe (which holds the next publisher) are released
        // here, after the lock.
        ended.upstream?.cancel()
    }

    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
}

/// The subscriber an ``UpstreamRelay`` gives each upstream whose values pass through
/// unchanged: it tells the relay which upstream it is (`token`) with each signal, and runs
/// the operator's `then` on that upstream's completion.
struct RelaySubscriber<Downstream: Subscriber, Failure: Error>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input

    let combineIdentifier = CombineIdentifier()
    let relay: UpstreamRelay<Downstream>
    let token: Int
    let then: (Subscribers.Completion<Failure>) -> Void

    func receive(subscription: any Subscription) { relay.receive(subscription: subscription, token: token) }

    func receive(_ input: Input) -> Subscribers.Demand { relay.receive(input, token: token) }

    func receive(completion: Subscribers.Completion<Failure>) {
        if relay.upstreamCompleted(token: token) { then(completion) }
    }

    var description: String { relay.description }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
}
