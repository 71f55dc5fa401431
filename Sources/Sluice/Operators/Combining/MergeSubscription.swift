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
        for (index, subscribe) in upstreams.enumerated() { subscribe(Side(merge: merge, index: index)) }
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
        let (upstreams, downstream) = state.withLock { $0.cancel() }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        for upstream in upstreams { upstream.cancel() }
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

    /// Carries out an action; if it made this thread the deliverer, delivers until nothing is
    /// left (values admitted meanwhile by other threads, then a completion kept for it).
    @inlinable
    func perform(_ action: MergeState<Downstream>.Action) {
        for upstream in action.cancels { upstream.cancel() }
        if let (downstream, completion) = action.complete { downstream.receive(completion: completion) }
        action.requests.make()
        guard let (downstream, first) = action.deliver else { return }
        var more = downstream.receive(first)
        while true {
            let (next, value) = state.withLock { $0.delivered(more: more) }
            next.requests.make()
            switch value {
            case .value(let value):
                more = downstream.receive(value)
            case .completion(let completion):
                downstream.receive(completion: completion)
                return
            case .idle:
                return
            }
        }
    }

    @usableFromInline var description: String { "Merge" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

    /// The subscriber of one upstream: it tells the merge which upstream spoke.
    @usableFromInline
    struct Side: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Output
        @usableFromInline let merge: MergeSubscription
        @usableFromInline let index: Int
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable init(merge: MergeSubscription, index: Int) {
            self.merge = merge
            self.index = index
        }

        @inlinable func receive(subscription: any Subscription) { merge.receive(subscription: subscription, at: index) }
        @inlinable func receive(_ input: Output) -> Subscribers.Demand { merge.receive(input, at: index) }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) { merge.receive(completion: completion, at: index) }
        @usableFromInline var description: String { "Merge" }
    }
}
