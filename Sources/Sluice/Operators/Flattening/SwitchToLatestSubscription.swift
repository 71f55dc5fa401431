/// The subscription `switchToLatest` gives its downstream: the subscriber of the upstream and, through an
/// ``IndexedSubscriber``, of each inner in turn. Its rules are ``SwitchToLatestState``'s; every transition
/// happens under one lock, and every call out (to the downstream, the upstream or an inner) after unlocking.
@usableFromInline
final class SwitchToLatestSubscription<Inner: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Inner
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<SwitchToLatestState<Downstream>>
    @usableFromInline let requestEntry: SpecializedEntry<SwitchToLatestSubscription, Subscribers.Demand>

    @inlinable
    init(downstream: Downstream) {
        state = Locked(SwitchToLatestState(downstream: downstream))
        requestEntry = SpecializedEntry { $0.handleRequest($1) }
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard state.withLock({ $0.attachUpstream(subscription) }) else { return subscription.cancel() }
        subscription.request(.unlimited)
    }

    /// Cancels the current inner, then subscribes to `input`.
    @inlinable
    func receive(_ input: Inner) -> Subscribers.Demand {
        guard let (index, previous) = state.withLock({ $0.switchInner() }) else { return .none }
        previous?.cancel()
        input.subscribe(IndexedSubscriber(parent: self, index: index))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        state.perform(state.withLock { $0.completeUpstream(completion) })
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

    @inlinable
    func handleRequest(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        state.withLock { $0.request(demand) }?.request(demand)
    }

    @inlinable
    func cancel() {
        state.cancelFanIn()
    }

    @usableFromInline var description: String { "SwitchToLatest" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}

extension SwitchToLatestSubscription: IndexedSubscriberParent {
    @usableFromInline typealias IndexedInput = Downstream.Input
    @usableFromInline typealias IndexedFailure = Failure

    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        switch state.withLock({ $0.attachInner(subscription, at: index) }) {
        case .attach(let demand): if demand > .none { subscription.request(demand) }
        case .cancel: subscription.cancel()
        case .ignore: break
        }
    }

    /// Delivers the inner's value if it is current and there is demand; returns to it the
    /// demand the downstream returned, as Combine does. Values other inners sent meanwhile,
    /// delivered by this thread after it, have their demand requested instead. The current
    /// inner sending a value it was not asked for traps (rule 2), as Combine's does.
    @inlinable
    func receive(_ value: Downstream.Input, at index: Int) -> Subscribers.Demand {
        let downstream: Downstream
        switch state.withLock({ $0.admit(value, from: index) }) {
        case .deliver(let receiver): downstream = receiver
        case .drop: return .none
        case .beyondDemand: Violation.valueBeyondDemand(description)
        }
        let more = downstream.receive(value)
        let (action, next, returned) = state.withLock { $0.delivered(more: more, returningTo: index) }
        state.perform(action)
        state.drain(next, to: downstream)
        return returned
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        state.perform(state.withLock { $0.completeInner(completion, at: index) })
    }
}
