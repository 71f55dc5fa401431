/// The subscription of `prefix(untilOutputFrom:)` (`dropping == false`) and
/// `drop(untilOutputFrom:)` (`dropping == true`): the subscriber of the upstream, and through
/// ``Trigger`` of the other publisher. Every transition is under one lock; every call out
/// happens after unlocking.
@usableFromInline
final class UntilOutputSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<UntilOutputState<Downstream>>
    @usableFromInline let dropping: Bool
    @usableFromInline let description: String

    @inlinable
    init(downstream: Downstream, dropping: Bool) {
        state = Locked(UntilOutputState(downstream: downstream))
        self.dropping = dropping
        description = dropping ? "DropUntilOutput" : "PrefixUntilOutput"
    }

    /// Gives the downstream this subscription first (so that a trigger that fires or ends at
    /// once cannot reach it before), then subscribes the trigger, then the upstream.
    @inlinable
    static func start<Upstream: Publisher, Other: Publisher>(
        _ downstream: Downstream, upstream: Upstream, trigger other: Other, dropping: Bool
    ) where Upstream.Output == Input, Upstream.Failure == Failure {
        let subscription = UntilOutputSubscription(downstream: downstream, dropping: dropping)
        downstream.receive(subscription: subscription)
        other.subscribe(Trigger<Other.Output, Other.Failure>(subscription: subscription))
        upstream.subscribe(subscription)
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        let pending = state.withLock { state -> Subscribers.Demand? in
            guard state.upstream.attach(subscription) else { return nil }
            defer { state.pending = .none }
            return state.pending
        }
        guard let pending else { return subscription.cancel() }
        if pending > .none { subscription.request(pending) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let downstream = state.withLock { state -> Downstream? in
            // Not yet triggered, `drop(untilOutputFrom:)` drops the value: its demand is used.
            guard !state.ended, !(dropping && !state.triggered), case .deliver = state.delivery.admit(input) else {
                return nil
            }
            return state.downstream
        }
        guard let downstream else { return .none }
        let more = downstream.receive(input)
        if let (downstream, completion) = state.withLock({ $0.delivered() }) {
            downstream.receive(completion: completion)
        }
        return more
    }

    /// The upstream completed: the stream ends with its completion, and the trigger is
    /// cancelled (the upstream is not: it has completed, and Combine does not cancel it).
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        finish(state.withLock { state in
            _ = state.upstream.end()
            return state.end(with: completion)
        })
    }

    // MARK: The trigger

    @inlinable
    func triggerReceive(subscription: any Subscription) {
        let attached = state.withLock { $0.trigger.attach(subscription) }
        if attached { subscription.request(.max(1)) } else { subscription.cancel() }
    }

    /// The trigger's value; ignored unless the trigger is subscribed (a value after its
    /// completion, or before its subscription, comes from a broken publisher: Combine ignores
    /// it too).
    @inlinable
    func triggerFired() {
        if dropping {
            // One value was requested, so the trigger would send nothing more; it is cancelled
            // (Combine only lets go of it) so that it can free what it holds, such as a
            // subject's hold on this subscription.
            let trigger = state.withLock { state -> (any Subscription)? in
                guard state.trigger.isSubscribed else { return nil }
                state.triggered = true
                return state.trigger.end()?.upstream
            }
            trigger?.cancel()
        } else {
            finish(state.withLock { $0.trigger.isSubscribed ? $0.end(with: .finished) : .init() })
        }
    }

    /// The trigger ended without a value: `prefix` goes on; `drop` ends with it, as nothing
    /// could pass any more (Combine's behaviour).
    @inlinable
    func triggerEnded(_ completion: Subscribers.Completion<Failure>?) {
        let ending = state.withLock { state -> UntilOutputState<Downstream>.Ending in
            _ = state.trigger.end()   // it completed: nothing to cancel
            guard dropping, !state.triggered, let completion else { return .init() }
            return state.end(with: completion)
        }
        finish(ending)
    }

    @inlinable
    func finish(_ ending: UntilOutputState<Downstream>.Ending) {
        for subscription in ending.cancels { subscription.cancel() }
        if let (downstream, completion) = ending.complete { downstream.receive(completion: completion) }
    }

    // MARK: Subscription

    /// Passes `demand` to the upstream (`.none` included, as Combine's does), or keeps it
    /// until the upstream's subscription arrives.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let upstream = state.withLock { state -> (any Subscription)? in
            guard !state.ended else { return nil }
            if let upstream = state.upstream.current { return upstream }
            state.pending += demand
            return nil
        }
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        let (cancels, downstream) = state.withLock { $0.cancel() }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        for subscription in cancels { subscription.cancel() }
    }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

    /// The subscriber of the trigger publisher. Its failure type is the upstream's for
    /// `drop(untilOutputFrom:)`, and anything for `prefix(untilOutputFrom:)`, which ignores it.
    /// It has the subscription's identifier, as Combine's has: both publishers see one
    /// subscriber.
    @usableFromInline
    struct Trigger<TriggerOutput, TriggerFailure: Error>: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = TriggerOutput
        @usableFromInline typealias Failure = TriggerFailure
        @usableFromInline let subscription: UntilOutputSubscription
        @inlinable var combineIdentifier: CombineIdentifier { subscription.combineIdentifier }

        @inlinable init(subscription: UntilOutputSubscription) { self.subscription = subscription }

        @inlinable func receive(subscription upstream: any Subscription) { subscription.triggerReceive(subscription: upstream) }

        @inlinable func receive(_ input: TriggerOutput) -> Subscribers.Demand {
            subscription.triggerFired()
            return .none
        }

        @inlinable func receive(completion: Subscribers.Completion<TriggerFailure>) {
            switch completion {
            case .finished: subscription.triggerEnded(.finished)
            case .failure(let failure): subscription.triggerEnded((failure as? Downstream.Failure).map { .failure($0) })
            }
        }

        @usableFromInline var description: String { subscription.description }
    }
}
