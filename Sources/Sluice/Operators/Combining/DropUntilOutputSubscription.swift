/// The subscription of `drop(untilOutputFrom:)`: the subscriber of the upstream, and through
/// ``Other`` of the other publisher. Every transition is under one lock
/// (``DropUntilOutputState`` lists them); every call out happens after unlocking.
@usableFromInline
final class DropUntilOutputSubscription<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<DropUntilOutputState<Downstream>>

    @inlinable
    init(downstream: Downstream) {
        state = Locked(DropUntilOutputState(downstream: downstream))
    }

    /// Gives the downstream this subscription first (so that an other publisher that fires or ends at once
    /// cannot reach it before), then subscribes the other publisher, then the upstream, as Combine's does.
    @inlinable
    static func start<Upstream: Publisher, OtherPublisher: Publisher>(
        _ downstream: Downstream, upstream: Upstream, other: OtherPublisher
    ) where Upstream.Output == Input, Upstream.Failure == Failure, OtherPublisher.Failure == Failure {
        let subscription = DropUntilOutputSubscription(downstream: downstream)
        downstream.receive(subscription: subscription)
        other.subscribe(Other<OtherPublisher.Output>(subscription: subscription))
        upstream.subscribe(subscription)
    }

    // MARK: The upstream

    /// Takes the first subscription (also after the other publisher ended the stream, as
    /// Combine's does) and asks it for the demand requested so far; cancels any other.
    @inlinable
    func receive(subscription: any Subscription) {
        let pending = state.withLock { state -> Subscribers.Demand? in
            guard state.upstream == nil, !state.cancelled else { return nil }
            state.upstream = subscription
            return state.pending
        }
        guard let pending else { return subscription.cancel() }
        if pending > .none { subscription.request(pending) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        switch state.withLock({ $0.receive(input) }) {
        case .drop, .none: return .none
        case .trap: Violation.valueBeyondDemand(description)
        case .deliver(let downstream): return state.deliver(input, to: downstream)
        }
    }

    /// The first completion after subscribing passes on; the other publisher is not cancelled
    /// (nor is the upstream, which completed), as in Combine.
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            return state.finish(completion)
        }
        downstream?.receive(completion: completion)
    }

    // MARK: The other publisher

    @inlinable
    func otherReceive(subscription: any Subscription) {
        let taken = state.withLock { state -> Bool in
            guard state.other == nil else { return false }
            state.other = subscription
            return true
        }
        if taken { subscription.request(.max(1)) } else { subscription.cancel() }
    }

    /// Opens the stream. The other subscription is let go of, not cancelled, as in Combine.
    @inlinable
    func otherFired() {
        let other = state.withLock { state -> (any Subscription)? in
            state.triggered = true
            defer { state.other = nil }
            return state.other
        }
        withExtendedLifetime(other) {}  // released here, after unlocking
    }

    /// Before the stream opened, the other publisher's completion is the stream's (each time,
    /// as Combine delivers it), and the upstream is cancelled; after, it is ignored.
    @inlinable
    func otherCompleted(_ completion: Subscribers.Completion<Failure>) {
        let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
            if state.triggered {
                defer { state.other = nil }
                return (nil, nil)
            }
            defer { state.upstream = nil }
            return (state.upstream, state.finish(completion))
        }
        upstream?.cancel()
        downstream?.receive(completion: completion)
    }

    // MARK: Subscription

    /// Counts `demand` (the values dropped use it up) and passes it to the upstream,
    /// `.none` included, as Combine's does.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let upstream = state.withLock { state -> (any Subscription)? in
            state.pending += demand
            return state.upstream
        }
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        let (upstream, other, downstream) = state.withLock { state in
            defer {
                state.upstream = nil
                state.other = nil
                state.downstream = nil
                state.cancelled = true
                state.delivery.reset()
            }
            return (state.upstream, state.other, state.downstream)
        }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        upstream?.cancel()
        other?.cancel()
    }

    @usableFromInline var description: String { "DropUntilOutput" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }

    /// The subscriber of the other publisher. It has the subscription's identifier, as
    /// Combine's has: both publishers see one subscriber.
    @usableFromInline
    struct Other<OtherOutput>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        @usableFromInline typealias Input = OtherOutput
        @usableFromInline let subscription: DropUntilOutputSubscription
        @inlinable var combineIdentifier: CombineIdentifier { subscription.combineIdentifier }

        @inlinable init(subscription: DropUntilOutputSubscription) { self.subscription = subscription }

        @inlinable func receive(subscription upstream: any Subscription) {
            subscription.otherReceive(subscription: upstream)
        }

        @inlinable func receive(_ input: OtherOutput) -> Subscribers.Demand {
            subscription.otherFired()
            return .none
        }

        @inlinable func receive(completion: Subscribers.Completion<Failure>) {
            subscription.otherCompleted(completion)
        }

        @usableFromInline var description: String { subscription.description }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
