/// What a ``Publishers/Multicast`` subscribes to its subject for each downstream: the
/// subscriber of the subject and the subscription the downstream gets, as Combine's
/// "Multicast" is.
///
/// Requests and cancel go to the subject's subscription; the demand the downstream returns
/// from `receive(_:)` is requested from the subject (and `.none` returned to it), as Combine's
/// does. Every transition is under one lock; every call out happens after unlocking.
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

    @usableFromInline
    struct State {
        @usableFromInline var downstream: Downstream?
        @usableFromInline var subject = SubscriptionSlot.awaiting

        @inlinable init(downstream: Downstream) { self.downstream = downstream }
    }

    @usableFromInline let state: Locked<State>

    @inlinable
    init(downstream: Downstream) {
        state = Locked(State(downstream: downstream))
    }

    // MARK: The subject's signals

    @inlinable
    func receive(subscription: any Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.subject.attach(subscription) else { return nil }
            return state.downstream
        }
        guard let downstream else { return subscription.cancel() }
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let (downstream, subject) = state.withLock({ state in state.subject.current.flatMap { subject in state.downstream.map { ($0, subject) } } }) else {
            return .none
        }
        let more = downstream.receive(input)
        if more > .none { subject.request(more) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.subject.current != nil, state.subject.end() != nil else { return nil }
            defer { state.downstream = nil }
            return state.downstream
        }
        downstream?.receive(completion: completion)
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.subject.current }?.request(demand)
    }

    @inlinable
    func cancel() {
        let (ended, downstream) = state.withLock { state in
            defer { state.downstream = nil }
            return (state.subject.end(), state.downstream)
        }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        ended?.upstream?.cancel()
    }

    /// `"Multicast"`, as Combine prints it.
    @usableFromInline var description: String { "Multicast" }
    /// No children, as Combine's.
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
