/// What a ``Publishers/Multicast`` subscribes to its subject for each downstream: it passes the
/// subject's values and completion straight to the downstream, and hands the downstream a
/// ``MulticastSubscription`` in place of the subject's own, as Combine's "Multicast" does.
///
/// Nothing stands between the subject and the downstream on the way down: the subject already
/// delivers one signal at a time (rule 3), counts the demand the downstream returns, and lets
/// go of its subscriber once cancelled or completed, never under a delivery in progress. So a
/// value costs what the subject's own delivery costs, with no gate of the multicast's.
@usableFromInline
struct MulticastSubscriber<Downstream: Subscriber>: Subscriber {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: MulticastSubscription(subject: subscription))
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}

extension MulticastSubscriber: SubjectDeliveredSubscriber where Downstream: SubjectDeliveredSubscriber {
    /// The downstream's: nothing of the multicast's stands between.
    @inlinable func makeSubjectEntries() -> SubjectEntries<Input, Failure>? { downstream.makeSubjectEntries() }
}

/// The subscription a multicast's downstream gets: requests and cancel go to the subject's
/// subscription, which it wraps under Combine's name, "Multicast".
@usableFromInline
final class MulticastSubscription: Subscription, DeferredCancelSubscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline let subject: any Subscription

    @inlinable
    init(subject: any Subscription) {
        self.subject = subject
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        subject.request(demand)
    }

    @inlinable
    func cancel() {
        subject.cancel()
    }

    /// Forwards to the subject's subscription, which alone knows whether it is delivering.
    @usableFromInline
    func cancelReportingDelivery(owner: AnyObject) -> Bool {
        Sluice.cancelReportingDelivery(subject, owner: owner)
    }

    @usableFromInline var description: String { "Multicast" }
    /// No children, as Combine's.
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
