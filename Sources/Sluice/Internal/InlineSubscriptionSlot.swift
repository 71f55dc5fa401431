import Synchronization

/// A ``SubscriptionSlot`` behind a lock kept inside its owner (a `Mutex`), so that a subscriber
/// that holds one allocates no lock object of its own (``Subscribers/Sink``: one subscription
/// per `Just(i) → sink`, per sink subscribed to a subject).
@usableFromInline
struct InlineSubscriptionSlot: ~Copyable, Sendable {
    /// The slot, marked `Sendable` so that a `Mutex` can hold it. Safe: it is reached only
    /// through the mutex, and what it holds is a subscription, whose `request` and `cancel` any
    /// thread may call (design rules 4 and 5), as for ``UpstreamSubscription``.
    @usableFromInline
    struct Held: @unchecked Sendable {
        @usableFromInline var slot: SubscriptionSlot
        @inlinable init(_ slot: SubscriptionSlot) { self.slot = slot }
    }

    @usableFromInline let mutex = Mutex(Held(.awaiting))

    @inlinable init() {}

    /// Runs `body` on the slot with the lock held; as with `Locked`, nothing is called
    /// out from inside.
    @inlinable
    func withLock<Result>(_ body: (inout SubscriptionSlot) -> Result) -> Result {
        mutex.withLock { body(&$0.slot) }
    }
}
