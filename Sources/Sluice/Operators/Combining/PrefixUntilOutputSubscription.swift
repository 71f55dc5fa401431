/// The subscription of `prefix(untilOutputFrom:)`: the subscriber of the upstream, and through
/// ``Trigger`` of the other publisher. Every transition is under one lock
/// (``PrefixUntilOutputState`` lists them); every call out happens after unlocking. Neither
/// it nor ``Trigger`` has a description or mirror of its own, as Combine's have none.
@usableFromInline
final class PrefixUntilOutputSubscription<Downstream: Subscriber>: Subscriber, Subscription {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<PrefixUntilOutputState<Downstream>>

    @inlinable
    init(downstream: Downstream) {
        state = Locked(PrefixUntilOutputState(downstream: downstream))
    }

    /// Subscribes the trigger, then the upstream, as Combine's does; the downstream gets this
    /// subscription when the upstream's comes.
    @inlinable
    static func start<Upstream: Publisher, Other: Publisher>(
        _ downstream: Downstream, upstream: Upstream, trigger other: Other
    ) where Upstream.Output == Input, Upstream.Failure == Failure {
        let subscription = PrefixUntilOutputSubscription(downstream: downstream)
        other.subscribe(Trigger<Other.Output, Other.Failure>(subscription: subscription))
        upstream.subscribe(subscription)
    }

    // MARK: The upstream

    /// Takes the first subscription and hands this one down; cancels any later one, and one
    /// that comes after the stream ended.
    @inlinable
    func receive(subscription: any Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream.attach(subscription) else { return nil }
            return state.downstream
        }
        guard let downstream else { return subscription.cancel() }
        downstream.receive(subscription: self)
    }

    /// Passes a value on while the upstream is subscribed (before its subscription, a value
    /// is ignored, as in Combine).
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream.isSubscribed, case .deliver = state.delivery.admit(input) else { return nil }
            return state.downstream
        }
        guard let downstream else { return .none }
        return state.deliver(input, to: downstream)
    }

    /// The upstream completed: the trigger is cancelled, and the completion passes on if the
    /// upstream was subscribed (the upstream is not cancelled: it has completed).
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        finish(state.withLock { state in
            let subscribed = state.upstream.isSubscribed
            _ = state.upstream.end()
            return state.end(with: completion, delivering: subscribed, cancel: state.trigger.end()?.upstream)
        })
    }

    // MARK: The trigger

    @inlinable
    func triggerReceive(subscription: any Subscription) {
        let attached = state.withLock { $0.trigger.attach(subscription) }
        if attached { subscription.request(.max(1)) } else { subscription.cancel() }
    }

    /// The trigger's value, while it is subscribed: the upstream is cancelled and the stream
    /// finishes; the trigger is let go of, not cancelled, as in Combine.
    @inlinable
    func triggerFired() {
        let (ending, trigger) = state.withLock {
            state -> (PrefixUntilOutputState<Downstream>.Ending, SubscriptionSlot.Ended?) in
            guard state.trigger.isSubscribed else { return (.init(), nil) }
            let trigger = state.trigger.end()
            return (state.end(with: .finished, delivering: true, cancel: state.upstream.end()?.upstream), trigger)
        }
        withExtendedLifetime(trigger) {}  // released here, after unlocking
        finish(ending)
    }

    /// The trigger ended without a value: it is let go of, and the stream goes on.
    @inlinable
    func triggerEnded() {
        let trigger = state.withLock { $0.trigger.end() }
        withExtendedLifetime(trigger) {}  // released here, after unlocking
    }

    @inlinable
    func finish(_ ending: PrefixUntilOutputState<Downstream>.Ending) {
        ending.cancel?.cancel()
        if let (downstream, completion) = ending.complete { downstream.receive(completion: completion) }
    }

    // MARK: Subscription

    /// Passes `demand` to the upstream (`.none` included, as Combine's does).
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.upstream.current }?.request(demand)
    }

    @inlinable
    func cancel() {
        state.cancelFanIn()
    }

    /// The subscriber of the trigger publisher; its failure is ignored. It has the
    /// subscription's identifier, as Combine's has: both publishers see one subscriber.
    @usableFromInline
    struct Trigger<TriggerOutput, TriggerFailure: Error>: Subscriber {
        @usableFromInline typealias Input = TriggerOutput
        @usableFromInline typealias Failure = TriggerFailure
        @usableFromInline let subscription: PrefixUntilOutputSubscription
        @inlinable var combineIdentifier: CombineIdentifier { subscription.combineIdentifier }

        @inlinable init(subscription: PrefixUntilOutputSubscription) { self.subscription = subscription }

        @inlinable func receive(subscription upstream: any Subscription) {
            subscription.triggerReceive(subscription: upstream)
        }

        @inlinable func receive(_ input: TriggerOutput) -> Subscribers.Demand {
            subscription.triggerFired()
            return .none
        }

        @inlinable func receive(completion: Subscribers.Completion<TriggerFailure>) { subscription.triggerEnded() }
    }
}
