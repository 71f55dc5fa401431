import Synchronization

/// What a ``Publishers/Multicast`` subscribes to its subject for each downstream: it passes the subject's
/// values and completion straight to the downstream, and hands the downstream a ``MulticastSubscription`` in
/// place of the subject's own, as Combine's "Multicast" does. A second subscription from the subject is
/// cancelled, as Combine's is, and never reaches the downstream (rule 1).
///
/// Little stands between the subject and the downstream on the way down: the subject already delivers one
/// signal at a time (rule 3) and lets go of its subscriber once cancelled or completed, never under a
/// delivery in progress. A value costs one atomic load more (nothing passes once the downstream cancelled or
/// had its completion, whatever the subject sends), and the demand the downstream returns for it is requested
/// from the subject rather than returned, as Combine's multicast does.
@usableFromInline
struct MulticastSubscriber<Downstream: Subscriber>: Subscriber {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let downstream: Downstream
    /// The subscription the downstream gets, made here so that it can tell the subject's first
    /// subscription from a second.
    @usableFromInline let multicast = MulticastSubscription()
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard multicast.attach(subscription) else { return subscription.cancel() }
        downstream.receive(subscription: multicast)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard !multicast.hasEnded else { return .none }
        let more = downstream.receive(input)
        if more > .none { multicast.request(more) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard multicast.end() else { return }
        downstream.receive(completion: completion)
    }
}

extension MulticastSubscriber: SubjectDeliveredSubscriber where Downstream: SubjectDeliveredSubscriber {
    /// The downstream's: nothing of the multicast's stands between.
    @inlinable func makeSubjectEntries() -> SubjectEntries<Input, Failure>? { downstream.makeSubjectEntries() }
}

/// The subscription a multicast's downstream gets: requests and cancel go to the subject's
/// subscription, which it wraps under Combine's name, "Multicast". After the first cancel (or
/// the completion) it ends: later requests and cancels go nowhere, as Combine's.
@usableFromInline
final class MulticastSubscription: Subscription, DeferredCancelSubscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    /// Whether the subject's subscription has come (set once, by the first).
    @usableFromInline let attached = Atomic<Bool>(false)
    /// The subject's subscription: written once, by ``attach(_:)`` before the downstream gets
    /// this subscription, so every request and cancel (which need it in hand) reads it after;
    /// no access overlaps another, so the run-time exclusivity check on each request is skipped.
    @usableFromInline @exclusivity(unchecked) var subject: any Subscription = Subscriptions.empty

    /// Set by the first cancel or completion; nothing passes either way after it.
    @usableFromInline let ended = Atomic<Bool>(false)

    @inlinable
    init() {}

    /// Whether a cancel or the completion has ended the subscription.
    @inlinable var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Ends the subscription; `false` if it had ended already.
    @inlinable
    func end() -> Bool {
        !ended.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Takes the subject's first subscription; `false` for any later one (the caller cancels it).
    @inlinable
    func attach(_ subscription: any Subscription) -> Bool {
        guard !attached.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        subject = subscription
        return true
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard !hasEnded else { return }
        subject.request(demand)
    }

    @inlinable
    func cancel() {
        guard end() else { return }
        subject.cancel()
    }

    /// Ends the subscription, then forwards to the subject's subscription, which alone knows
    /// whether it is delivering (and answers `false` once cancelled or completed).
    @usableFromInline
    func cancelReportingDelivery(owner: AnyObject) -> Bool {
        _ = end()
        return Sluice.cancelReportingDelivery(subject, owner: owner)
    }

    @usableFromInline var description: String { "Multicast" }
    /// No children, as Combine's.
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
