/// What the iterator keeps for itself, outside the subscriber's lock: in `.onDemand` mode its own copy of
/// the upstream `subscription` (not optional, so the call goes straight to the stored existential), through
/// which the fast lane requests without the lock once `isOpen`; in `.prefetch` mode the `batch` it took from
/// the buffer in one locked step and serves one per `next()`. The state machine counts the batch as still
/// buffered and says when to come back (`takesBeforeTopUp`), so demand is topped up exactly when it would
/// be if each element took the lock.
@usableFromInline
struct ValuesIteratorCache<Input> {
    @usableFromInline var subscription: any Subscription = Subscriptions.empty
    @usableFromInline var isOpen = false
    @usableFromInline var batch = ValuesBuffer<Input>()
    /// Elements to take from `batch` before the prefetch level falls to the top-up point.
    @usableFromInline var takesBeforeTopUp = Int.max

    @inlinable init() {}

    @inlinable
    mutating func open(_ upstream: UpstreamSubscription) {
        subscription = upstream.base
        isOpen = true
    }

    /// The iteration ended: drops the subscription and any batch left (after a cancel).
    @inlinable
    mutating func close() {
        subscription = Subscriptions.empty
        isOpen = false
        batch = ValuesBuffer()
    }
}

/// Owned by the iterator alone: when the iterator goes away (the loop was left by `break`,
/// `return` or a throw), the subscription is cancelled. The upstream holds the
/// ``ValuesSubscriber``, not this, so the subscriber cannot keep it alive.
@usableFromInline
final class ValuesIteratorLifetime<Input, Failure: Error>: Sendable {
    @usableFromInline let subscriber: ValuesSubscriber<Input, Failure>

    @inlinable
    init(_ subscriber: ValuesSubscriber<Input, Failure>) { self.subscriber = subscriber }

    deinit { subscriber.cancel() }
}
