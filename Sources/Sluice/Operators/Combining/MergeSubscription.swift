/// The subscription every merge gives its downstream, and (through one ``Side`` per upstream)
/// the subscriber of each upstream. Its rules are ``MergeState``'s; every transition happens
/// under one lock, and every call out (to the downstream, to an upstream) after unlocking.
@usableFromInline
final class MergeSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<MergeState<Downstream>>
    @usableFromInline let requestEntry: SpecializedEntry<MergeSubscription, Subscribers.Demand>

    @inlinable
    init(downstream: Downstream, count: Int) {
        state = Locked(MergeState(downstream: downstream, count: count))
        requestEntry = SpecializedEntry { $0.handleRequest($1) }
    }

    /// Gives the downstream this subscription, then subscribes each upstream, in order, so
    /// that an upstream that completes at once cannot reach the downstream before it.
    @inlinable
    static func start(_ downstream: Downstream, subscribing upstreams: [(Side) -> Void]) {
        let merge = MergeSubscription(downstream: downstream, count: upstreams.count)
        downstream.receive(subscription: merge)
        for (index, subscribe) in upstreams.enumerated() { subscribe(Side(parent: merge, index: index)) }
        if upstreams.isEmpty { merge.perform(merge.state.withLock { $0.finishWithNoUpstream() }) }
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

    @inlinable
    func handleRequest(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        perform(state.withLock { $0.request(demand) })
    }

    @inlinable
    func cancel() {
        state.cancelFanIn()
    }

    // MARK: The upstreams' signals, through their sides

    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        if let demand = state.withLock({ $0.attach(subscription, at: index) }) {
            subscription.request(demand)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ value: Output, at index: Int) -> Subscribers.Demand {
        let (action, demand) = state.withLock { $0.receive(value, at: index) }
        perform(action)
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        perform(state.withLock { $0.complete(completion, at: index) })
    }

    /// Carries out an action after unlocking; see ``Locked/perform(_:)``.
    @inlinable
    func perform(_ action: MergeState<Downstream>.Action) {
        state.perform(action)
    }

    @usableFromInline var description: String { "Merge" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

    /// The subscriber of one upstream: it tells the merge which upstream spoke.
    @usableFromInline typealias Side = IndexedSubscriber<MergeSubscription>
}

extension MergeSubscription: IndexedSubscriberParent {
    @usableFromInline typealias IndexedInput = Output
    @usableFromInline typealias IndexedFailure = Failure
}
