/// What a ``Publishers/Multicast`` subscribes to its subject for each downstream: the
/// subscriber of the subject and the subscription the downstream gets, as Combine's
/// "Multicast" is.
///
/// Requests and cancel go to the subject's subscription; the demand the downstream returns
/// from `receive(_:)` is requested from the subject (and `.none` returned to it), as Combine's
/// does. The subject's slot is under a lock; the downstream is `Gated`; every call out
/// happens with no lock held.
///
/// ```text
/// awaiting ──subject's subscription──▶ subscribed ──completion / cancel──▶ terminated
/// ```
/// It lets go of the downstream on completion and on cancel.
@usableFromInline
final class MulticastSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// The downstream, released on completion and on cancel; values reach it without a lock.
    @usableFromInline let downstream: Gated<Downstream>
    @usableFromInline let subject = Locked(SubscriptionSlot.awaiting)

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Gated(downstream)
    }

    // MARK: The subject's signals

    @inlinable
    func receive(subscription: any Subscription) {
        guard subject.withLock({ $0.attach(subscription) }) else { return subscription.cancel() }
        _ = downstream.withValue { $0.receive(subscription: self) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let more = downstream.withValue({ $0.receive(input) }), more > .none else { return .none }
        subject.withLock { $0.current }?.request(more)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard subject.withLock({ $0.isSubscribed && $0.end() != nil }) else { return }
        downstream.withValueFinally { $0.receive(completion: completion) }
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        subject.withLock { $0.current }?.request(demand)
    }

    @inlinable
    func cancel() {
        let ended = subject.withLock { $0.end() }
        downstream.terminate()
        ended?.upstream?.cancel()
    }

    @usableFromInline var description: String { "Multicast" }
    /// No children, as Combine's.
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
