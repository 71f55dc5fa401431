/// What the iterator keeps for itself, outside the subscriber's lock.
///
/// - `subscription`: in `.onDemand` mode, the iterator's own copy of the upstream
///   subscription, through which the fast lane requests without the lock (`isOpen` once in
///   use). Not optional, so that the call goes straight to the stored existential instead of
///   through a copy.
/// - `batch`: in `.prefetch` mode, the elements the iterator took from the buffer in one
///   locked step and serves one per `next()` without the lock. The state machine counts
///   them as still buffered when it decides to top up, so the limit holds, and tells the
///   iterator after how many elements to come back for the top-up (`takesBeforeTopUp`), so
///   the demand is topped up exactly when it would be if each element took the lock.
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
