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
///
/// As in Combine, the hooks see what comes before the upstream's subscription too: a second
/// subscription (then cancelled), a request (not passed on) and a cancel, which is otherwise
/// ignored (the subscription that comes later is taken). After the end, the hooks see nothing
/// more, unless `hooksAfterEnd` (`print`, which logs every subscription, request and cancel).
@usableFromInline
final class ObservingSubscription<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let description: String
    @usableFromInline let hooks: EventHooks<Input, Failure>
    @usableFromInline let hooksAfterEnd: Bool
    @usableFromInline
    struct State {
        @usableFromInline var upstream = SubscriptionSlot.awaiting
        @usableFromInline var downstream: Downstream?
        @inlinable init(downstream: Downstream) { self.downstream = downstream }
    }

    @usableFromInline let state: Locked<State>

    @inlinable
    init(name: String, hooks: EventHooks<Input, Failure>, hooksAfterEnd: Bool = false, downstream: Downstream) {
        description = name
        self.hooks = hooks
        self.hooksAfterEnd = hooksAfterEnd
        state = Locked(State(downstream: downstream))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let (downstream, ended) = state.withLock { state -> (Downstream?, Bool) in
            if case .terminated = state.upstream { return (nil, true) }
            return (state.upstream.attach(subscription) ? state.downstream : nil, false)
        }
        if !ended || hooksAfterEnd { hooks.subscription?(subscription) }
        guard let downstream else {
            subscription.cancel()   // a second one, or one after the end
            return
        }
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
        let (upstream, ended) = state.withLock { state -> ((any Subscription)?, Bool) in
            if case .terminated = state.upstream { return (nil, true) }
            return (state.upstream.current, false)
        }
        if !ended || hooksAfterEnd { hooks.request?(demand) }
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        // Before the upstream's subscription a cancel is seen, and otherwise ignored.
        let awaiting = state.withLock { state in if case .awaiting = state.upstream { true } else { false } }
        guard !awaiting, let ended = terminate() else {
            if awaiting || hooksAfterEnd { hooks.cancel?() }
            return
        }
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
