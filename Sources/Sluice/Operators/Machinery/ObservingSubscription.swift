/// The closures ``ObservingSubscription`` calls; any may be absent.
@usableFromInline
struct EventHooks<Output, Failure: Error> {
    @usableFromInline var subscription: ((any Subscription) -> Void)?
    @usableFromInline var output: ((Output) -> Void)?
    @usableFromInline var completion: ((Subscribers.Completion<Failure>) -> Void)?
    @usableFromInline var cancel: (() -> Void)?
    @usableFromInline var request: ((Subscribers.Demand) -> Void)?

    @inlinable
    init(
        subscription: ((any Subscription) -> Void)?, output: ((Output) -> Void)?,
        completion: ((Subscribers.Completion<Failure>) -> Void)?, cancel: (() -> Void)?,
        request: ((Subscribers.Demand) -> Void)?
    ) {
        self.subscription = subscription
        self.output = output
        self.completion = completion
        self.cancel = cancel
        self.request = request
    }
}

/// Stands between an upstream and a downstream to observe all five events (`handleEvents`,
/// `print`, `breakpoint`): it is the downstream's subscription, so it sees requests and the
/// cancel, and forwards each after its hook.
///
/// The upstream subscription and the downstream are kept under a lock (requests and cancel come
/// from any thread); a cancel or the completion drops both, as rule 4 asks. A lock per value is
/// the price of that, acceptable in debugging operators.
@usableFromInline
final class ObservingSubscription<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let description: String
    @usableFromInline let hooks: EventHooks<Input, Failure>
    @usableFromInline
    struct State {
        @usableFromInline var upstream = SubscriptionSlot.awaiting
        @usableFromInline var downstream: Downstream?
        @inlinable init(downstream: Downstream) { self.downstream = downstream }
    }

    @usableFromInline let state: Locked<State>

    @inlinable
    init(name: String, hooks: EventHooks<Input, Failure>, downstream: Downstream) {
        description = name
        self.hooks = hooks
        state = Locked(State(downstream: downstream))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let downstream = state.withLock { $0.upstream.attach(subscription) ? $0.downstream : nil }
        guard let downstream else {
            subscription.cancel()
            return
        }
        hooks.subscription?(subscription)
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.downstream }) else { return .none }
        hooks.output?(input)
        let demand = downstream.receive(input)
        if demand > .none { hooks.request?(demand) }
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard let downstream = terminate()?.downstream else { return }
        hooks.completion?(completion)
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard let upstream = state.withLock({ $0.upstream.current }) else { return }
        hooks.request?(demand)
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        guard let ended = terminate() else { return }
        hooks.cancel?()
        ended.upstream?.cancel()
    }

    /// Ends the subscription once; returns what it held, released by the caller outside the lock.
    @inlinable
    func terminate() -> (upstream: (any Subscription)?, downstream: Downstream?)? {
        state.withLock { state in
            guard let ended = state.upstream.end() else { return nil }
            defer { state.downstream = nil }
            return (ended.upstream, state.downstream)
        }
    }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
