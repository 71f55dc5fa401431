/// The downstream's subscription for an operator whose upstream can be replaced while the downstream's
/// outstanding demand is kept: `catch`/`tryCatch`, `retry`, `append`/`prepend`. Operators that end with a
/// value of their own, which needs demand (`replaceError`, `replaceEmpty`, `collect(_:)`), use it with one.
///
/// When an upstream subscribed with ``subscribe(_:then:)`` completes, `then` decides outside the lock:
/// subscribe the next one, ``complete(_:)`` or ``finish(sending:)``. The downstream gets the relay as its
/// subscription once, with the first upstream's; each later upstream is asked at once for the demand the
/// downstream still has. A cancel reaches the current upstream, or one still subscribing when it arrives.
///
/// ``UpstreamRelayState`` decides under one lock; every call out is made after it (rule 6). Signals stay
/// serial (rule 3): the next upstream is subscribed only after the last completed, and nested subscribes run
/// in a loop (rule 5). `demandScale` multiplies demand sent upstream (`collect(3)`); `trapsOnZeroDemand`
/// makes `request(.none)` trap (rule 7); `checks` says which misbehaving upstream signals trap, as in Combine.
/// `asksUnlimited` (`replaceEmpty`, as Combine's) asks the first upstream for `.unlimited` once the
/// downstream has its subscription, besides passing the downstream's requests on, and keeps the values that
/// come beyond the downstream's demand until it asks for them (rule 2).
final class UpstreamRelay<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    let combineIdentifier = CombineIdentifier()
    let description: String
    private let state: Locked<UpstreamRelayState<Downstream>>
    private let demandScale: Int
    private let trapsOnZeroDemand: Bool
    private let checks: UpstreamChecks
    /// Whether the mirror shows the downstream and its outstanding demand (Combine's `catch`
    /// and `tryCatch` do; its other operators of this kind show nothing).
    private let mirrorsDemand: Bool
    /// Whether the first upstream is asked for `.unlimited` (see the type's comment).
    private let asksUnlimited: Bool

    init(
        name: String, downstream: Downstream, demandScale: Int = 1, trapsOnZeroDemand: Bool,
        checks: UpstreamChecks = .none, mirrorsDemand: Bool = false, asksUnlimited: Bool = false
    ) {
        description = name
        state = Locked(UpstreamRelayState(downstream: downstream, keepsBeyondDemand: asksUnlimited))
        self.demandScale = demandScale
        self.trapsOnZeroDemand = trapsOnZeroDemand
        self.checks = checks
        self.mirrorsDemand = mirrorsDemand
        self.asksUnlimited = asksUnlimited
    }

    // MARK: The operator's calls

    /// Subscribes to `publisher`; `then` runs once when it completes (not after a cancel).
    /// Does nothing once the relay has terminated.
    func subscribe<P: Publisher>(
        _ publisher: P, then: @escaping (Subscribers.Completion<P.Failure>) -> Void
    ) where P.Output == Downstream.Input {
        subscribe(publisher, as: Void.self, then: then)
    }

    /// ``subscribe(_:then:)`` through a subscriber whose type is marked by `role`: Combine's `append`
    /// subscribes its prefix and its suffix through subscribers of two types, which code may tell apart.
    func subscribe<P: Publisher, Role>(
        _ publisher: P, as role: Role.Type, then: @escaping (Subscribers.Completion<P.Failure>) -> Void
    ) where P.Output == Downstream.Input {
        connect { token in
            self.state.withLock { $0.keep(then: then, token: token) }
            publisher.subscribe(RelaySubscriber<Downstream, P.Failure, Role>(relay: self, token: token))
        }
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

    /// Passes `completion` downstream and terminates (after the values kept for want of demand, if any).
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        state.withLock { $0.complete(completion) }?.receive(completion: completion)
    }

    /// Sends `value`, then `.finished`; if the downstream has no outstanding demand, holds
    /// them until its next request.
    func finish(sending value: Downstream.Input) {
        guard case .send(let downstream, let value) = state.withLock({ $0.finishSending(value) }) else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    /// Whether an upstream sent a value that was taken (delivered, or kept for want of demand).
    var hasReceived: Bool { state.withLock { $0.received } }

    // MARK: The current upstream's signals (through its subscriber)

    func receive(subscription: any Subscription, token: Int) {
        switch state.withLock({ $0.attach(subscription, token: token) }) {
        case .reject:
            subscription.cancel()
        case .subscribeDownstream(let downstream, let early):
            downstream.receive(subscription: self)
            if early > .none { subscription.request(early * demandScale) }
            if asksUnlimited { subscription.request(.unlimited) }
        case .carry(let demand):
            if demand > .none { subscription.request(demand * demandScale) }
        }
    }

    /// Sends `value` if it is from the current upstream and has demand; returns the demand for that upstream
    /// to add. A value that breaks rule 1 or 2 traps where ``checks`` says so, and is dropped elsewhere.
    func receive(_ value: Downstream.Input, token: Int) -> Subscribers.Demand {
        let downstream: Downstream
        let acceptsEarly = checks == .everyValue && token > 1
        switch state.withLock({ $0.take(value, token: token, acceptsEarly: acceptsEarly) }) {
        case .deliver(let receiver):
            downstream = receiver
        case .drop, .kept:
            return .none
        case .beforeSubscription:
            if checks.trapsValueBeforeSubscription(token: token) { Violation.signalBeforeSubscription(description) }
            return .none
        case .beyondDemand:
            if checks.trapsValueBeyondDemand(token: token) { Violation.valueBeyondDemand(description) }
            return .none
        }
        let more = downstream.receive(value)
        guard more > .none else { return .none }
        let (upstream, drainer) = state.withLock { ($0.add(more, token: token), $0.startDraining()) }
        // Values kept while this one was out (an upstream sending from inside its delivery) go first.
        if let drainer { drainKept(to: drainer) }
        guard checks == .everyValue else { return more * demandScale }
        // retry asks its upstream for the demand a value brought instead of returning it, as
        // Combine's does (before the upstream's subscription, it is kept for it).
        upstream?.request(more * demandScale)
        return .none
    }

    /// Whether a completion from upstream `token` is the current upstream's, and then the operator's `then`
    /// for it (nil if none was kept), for the caller to run. Any other is ignored, except a failure that
    /// ``checks`` traps on (before the upstream's subscription, or after its completion).
    func upstreamCompleted(token: Int, failed: Bool = false) -> (current: Bool, then: Any?) {
        let acceptsEarly = checks.acceptsCompletionBeforeSubscription
        let (action, then) = state.withLock { $0.upstreamCompleted(token: token, acceptsEarly: acceptsEarly) }
        switch action {
        case .current:
            return (true, then)
        case .ignore:
            return (false, nil)
        case .beforeSubscription:
            if failed && checks.trapsFailureOutOfTurn(token: token) { Violation.signalBeforeSubscription(description) }
            return (false, nil)
        case .afterCompletion:
            if failed && checks.trapsFailureOutOfTurn(token: token) { Violation.signalAfterCompletion(description) }
            return (false, nil)
        }
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
        case .drain(let upstream, let downstream):
            upstream?.request(demand * demandScale)
            drainKept(to: downstream)
        case .none:
            break
        }
    }

    /// The drainer's loop: hands out kept values while the downstream has demand, then the completion
    /// that waited for them. A request from inside `receive(_:)` only adds demand, which this loop takes
    /// (rule 5).
    private func drainKept(to downstream: Downstream) {
        var more = Subscribers.Demand.none
        while true {
            switch state.withLock({ $0.nextKept(adding: more) }) {
            case .value(let value):
                more = downstream.receive(value)
            case .completion(let downstream, let completion):
                downstream.receive(completion: completion)
                return
            case .idle:
                return
            }
        }
    }

    /// Ends the relay; with ``UpstreamChecks/valuesAfterSubscription`` (`replaceError`), a cancel before
    /// upstream 1's subscription is ignored, as Combine's is (the subscription that comes later is taken).
    func cancel() {
        let ended = state.withLock { state -> UpstreamRelayState<Downstream>.Ended? in
            if checks.ignoresCancelBeforeSubscription, case .connecting(1) = state.link { return nil }
            return state.cancel()
        }
        guard let ended else { return }
        // The downstream and a queued subscribe (which holds the next publisher) are released
        // here, after the lock.
        ended.upstream?.cancel()
    }

    var customMirror: Mirror {
        guard mirrorsDemand else { return Mirror(self, children: [:]) }
        let (downstream, demand) = state.withLock { ($0.downstream, $0.demand) }
        return Mirror(self, children: ["downstream": downstream as Any, "demand": demand])
    }
    var playgroundDescription: Any { description }
}

/// The subscriber an ``UpstreamRelay`` gives each upstream: it tags each signal with the upstream's `token`
/// and runs the operator's `then` (kept by the relay, so a cancel lets go of it) on its completion. Like
/// Combine's, it is the downstream's subscription too: a request or cancel on it is the relay's. `Role`
/// only tells its type apart (`append`'s suffix).
struct RelaySubscriber<Downstream: Subscriber, Failure: Error, Role>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input

    let relay: UpstreamRelay<Downstream>
    let token: Int

    func receive(subscription: any Subscription) { relay.receive(subscription: subscription, token: token) }

    func receive(_ input: Input) -> Subscribers.Demand { relay.receive(input, token: token) }

    func receive(completion: Subscribers.Completion<Failure>) {
        let failed = if case .failure = completion { true } else { false }
        let (current, then) = relay.upstreamCompleted(token: token, failed: failed)
        if current, let then = then as? (Subscribers.Completion<Failure>) -> Void { then(completion) }
    }

    func request(_ demand: Subscribers.Demand) { relay.request(demand) }

    func cancel() { relay.cancel() }

    /// The relay's: every upstream sees the subscription the downstream has, as in Combine.
    var combineIdentifier: CombineIdentifier { relay.combineIdentifier }

    var description: String { relay.description }
    var customMirror: Mirror { Mirror(self, children: relay.customMirror.children) }
    var playgroundDescription: Any { description }
}

/// Which signals of a misbehaving upstream an ``UpstreamRelay`` traps on (rule 7), as the
/// Combine operator does (its count of the downstream's demand would go below zero, or its
/// state has no room for the signal); the signals it does not trap on are dropped. Upstream 1
/// is the operator's own upstream; later ones are those it subscribes after a completion.
enum UpstreamChecks {
    /// Nothing traps: `append`/`prepend`, `replaceEmpty`, `collect(_:)`.
    case none
    /// `catch` and `tryCatch`: upstream 1's value before its subscription or beyond the downstream's demand
    /// traps, and so does its failure before its subscription or after its completion (the handler itself
    /// making it fail again, say). The handler's publisher is not checked, as in Combine.
    case firstUpstream
    /// `retry`: a value beyond the downstream's demand traps, from every attempt, and so does one before
    /// upstream 1's subscription (the downstream has no demand yet then). As in Combine, a later attempt's
    /// value before its subscription goes to the downstream if it has demand, the demand a value brings is
    /// requested from the attempt rather than returned, and an attempt's completion before its subscription
    /// is its completion: a failure retries, a finish passes on (to a downstream that may not have its
    /// subscription yet, as Combine's retry passes it).
    case everyValue
    /// `replaceError`: a value beyond the downstream's demand traps; one before the
    /// subscription is ignored, and so is a cancel, as in Combine.
    case valuesAfterSubscription

    func trapsValueBeforeSubscription(token: Int) -> Bool {
        switch self {
        case .firstUpstream, .everyValue: token == 1
        case .none, .valuesAfterSubscription: false
        }
    }

    func trapsValueBeyondDemand(token: Int) -> Bool {
        switch self {
        case .firstUpstream: token == 1
        case .everyValue, .valuesAfterSubscription: true
        case .none: false
        }
    }

    func trapsFailureOutOfTurn(token: Int) -> Bool { self == .firstUpstream && token == 1 }

    /// Whether an upstream's completion before its subscription counts (`retry`'s, as in
    /// Combine); else it is dropped, or traps where ``trapsFailureOutOfTurn(token:)`` says.
    var acceptsCompletionBeforeSubscription: Bool { self == .everyValue }

    /// Whether a cancel before upstream 1's subscription is ignored (`replaceError`'s, as in
    /// Combine); else it ends the relay.
    var ignoresCancelBeforeSubscription: Bool { self == .valuesAfterSubscription }
}
