import Synchronization

/// The subscription an ``Publishers/Autoconnect`` gives each downstream: the upstream's own, which it stands
/// for (Combine's shows the upstream's description and identifier), plus the count of subscribers.
///
/// Its first `cancel()` takes the subscriber off the count (the last one off disconnects),
/// then cancels the upstream's subscription; every `cancel()` reaches the upstream's, as in
/// Combine, whose `cancel()` is idempotent.
@usableFromInline
final class AutoconnectSubscription: Subscription, DeferredCancelSubscription, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline let upstream: any Subscription
    /// The autoconnect's state, where this subscriber counts until it has ``left``.
    @usableFromInline let state: Locked<AutoconnectState>
    @usableFromInline let left = Atomic<Bool>(false)
    /// The autoconnect, which disconnects when the last subscriber leaves.
    @usableFromInline let parent: any AutoconnectParent

    @inlinable
    init(_ upstream: any Subscription, count state: Locked<AutoconnectState>, parent: any AutoconnectParent) {
        self.upstream = upstream
        self.state = state
        self.parent = parent
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        leave()
        upstream.cancel()
    }

    /// The first call takes this subscriber off the count; the last one off disconnects.
    @inlinable
    func leave() {
        if !left.exchange(true, ordering: .acquiringAndReleasing), let connection = state.withLock({ $0.leave() }) {
            parent.disconnect(connection)
        }
    }

    /// Takes the subscriber off the count as ``cancel()`` does, then forwards to the upstream's
    /// subscription, which alone knows whether it is delivering.
    @usableFromInline
    func cancelReportingDelivery(owner: AnyObject) -> Bool {
        leave()
        return Sluice.cancelReportingDelivery(upstream, owner: owner)
    }

    @usableFromInline var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }
    /// The upstream subscription's description, as Combine's.
    @usableFromInline var description: String { String(describing: upstream) }
    @usableFromInline var playgroundDescription: Any { description }

    /// What the autoconnect subscribes to its upstream for each downstream: it hands the
    /// downstream an ``AutoconnectSubscription`` and passes every other signal on as it is.
    @usableFromInline
    struct Side<Parent: AutoconnectParent, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        @usableFromInline typealias Input = Downstream.Input
        @usableFromInline typealias Failure = Downstream.Failure

        @usableFromInline let combineIdentifier = CombineIdentifier()
        @usableFromInline let parent: Parent
        @usableFromInline let state: Locked<AutoconnectState>
        @usableFromInline let downstream: Downstream

        @inlinable
        init(parent: Parent, state: Locked<AutoconnectState>, downstream: Downstream) {
            self.parent = parent
            self.state = state
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: AutoconnectSubscription(subscription, count: state, parent: parent))
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }

        /// `"Autoconnect"`, as Combine prints it.
        @usableFromInline var description: String { "Autoconnect" }
        /// The autoconnect and the downstream, as Combine's.
        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["parent": parent, "downstream": downstream])
        }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension AutoconnectSubscription.Side: SubjectDeliveredSubscriber where Downstream: SubjectDeliveredSubscriber {
    /// The downstream's: nothing of the autoconnect's stands between.
    @inlinable func makeSubjectEntries() -> SubjectEntries<Input, Failure>? { downstream.makeSubjectEntries() }
}
