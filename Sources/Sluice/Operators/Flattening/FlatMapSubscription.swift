/// The subscription `flatMap` gives its downstream: the subscriber of the upstream and,
/// through one ``IndexedSubscriber`` per inner publisher, of each inner. Its rules are ``FlatMapState``'s;
/// every transition happens under one lock, and every call out (to the downstream, to the
/// upstream or an inner, to `transform`) after unlocking.
@usableFromInline
final class FlatMapSubscription<Input, Child: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Child.Output == Downstream.Input, Child.Failure == Downstream.Failure {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<FlatMapState<Downstream>>
    @usableFromInline let requestEntry: SpecializedEntry<FlatMapSubscription, Subscribers.Demand>
    @usableFromInline let transform: (Input) -> Child
    /// The upstream's demand at subscription, as the state holds it.
    @usableFromInline let maxPublishers: Subscribers.Demand
    /// Subscribes inner `index` to the publisher `transform` makes of an element.
    @usableFromInline let subscribeInner: SpecializedEntry<FlatMapSubscription, (Input, Int)>

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (Input) -> Child) {
        state = Locked(FlatMapState(downstream: downstream, maxPublishers: maxPublishers))
        requestEntry = SpecializedEntry { $0.handleRequest($1) }
        subscribeInner = SpecializedEntry { flatMap, element in
            flatMap.transform(element.0).subscribe(IndexedSubscriber(parent: flatMap, index: element.1))
        }
        self.transform = transform
        self.maxPublishers = maxPublishers
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard let demand = state.withLock({ $0.attachUpstream(subscription) }) else { return subscription.cancel() }
        // `maxPublishers`, `.max(0)` included, as Combine asks (an upstream that traps on a
        // request of `.none`, a subject's, then traps there too).
        subscription.request(demand)
    }

    /// Makes the element's publisher and subscribes to it; the demand for the next element comes from
    /// `maxPublishers` and from inners finishing (requested, as Combine does), never from here.
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // Decided by the specialisation: no check at run time where `Child` is known.
        if Self.childIsJust { return receiveJust(input) }
        guard let index = state.withLock({ $0.reserveInner() }) else { return .none }
        subscribeInner(self, (input, index))
        return .none
    }

    /// The inner publishers are `Just`s (with their failure type set or not).
    @inlinable
    static var childIsJust: Bool {
        Child.self == Just<Child.Output>.self
            || Child.self == Publishers.SetFailureType<Just<Child.Output>, Failure>.self
    }

    /// The scalar path, for inners that are `Just`s: when the downstream has demand and no value waits, a
    /// `Just`'s one value goes into the delivery at once, and the upstream is asked for the next element, as
    /// it is when any inner finishes. What the downstream and the upstream see is what subscribing to the
    /// `Just` gives (the value, in its turn, then a request of one more element: a call, not demand returned
    /// from here, as in Combine), without the inner's subscription and its four calls. With no demand (or
    /// values waiting ahead of it) the `Just` is subscribed as any inner is.
    @inlinable
    func receiveJust(_ input: Input) -> Subscribers.Demand {
        let just = transform(input)
        let value = (just as? Just<Child.Output>)?.output
            ?? (just as! Publishers.SetFailureType<Just<Child.Output>, Failure>).upstream.output
        switch state.withLock({ $0.receiveScalar(value) }) {
        case .deliver(let downstream, let value, let next):
            state.drain(.value(value), to: downstream)
            next?.request(.max(1))
        case .queued(let next):
            // Bounded hand-over: waits while the queue is over the bound for a deliverer on
            // another thread (see ``SerialDelivery``).
            state.holdSender { state, sender in state.delivery.holdCondition(for: sender) }
            next?.request(.max(1))
        case .subscribe:
            if let index = state.withLock({ $0.reserveInner() }) {
                just.subscribe(IndexedSubscriber(parent: self, index: index))
            }
        case .ignored:
            break
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let thread = currentThreadIdentity()
        let (action, reentered) = state.withLock { state in
            if state.ended && state.endingOn == thread { return (ListedFanInAction<Downstream>(), true) }
            let action = state.completeUpstream(completion)
            if !action.cancels.isEmpty { state.endingOn = thread }
            return (action, false)
        }
        // An inner's cancel made the upstream complete again, on this thread (rule 7).
        if reentered { Violation.signalAfterCompletion(description) }
        state.perform(action)
        if !action.cancels.isEmpty { state.withLock { $0.endingOn = 0 } }
    }

    // MARK: The inners, through their sides

    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        guard let demand = state.withLock({ $0.attachInner(subscription, at: index) }) else {
            return subscription.cancel()
        }
        subscription.request(demand)
    }

    @inlinable
    func receive(_ value: Downstream.Input, at index: Int) -> Subscribers.Demand {
        let (action, demand) = state.withLock { $0.receive(value, at: index) }
        state.perform(action)
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        state.perform(state.withLock { $0.completeInner(completion, at: index) })
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

    @inlinable
    func handleRequest(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        state.perform(state.withLock { $0.request(demand) })
    }

    @inlinable
    func cancel() {
        state.cancelFanIn()
    }

    @usableFromInline var description: String { "FlatMap" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

}

extension FlatMapSubscription: IndexedSubscriberParent {
    @usableFromInline typealias IndexedInput = Downstream.Input
    @usableFromInline typealias IndexedFailure = Failure
}
