/// A subscriber carried into the one task that signals it.
///
/// Safe because exactly one task at a time signals the wrapped subscriber: a
/// ``TaskSubscription`` starts its task only after `receive(subscription:)` has returned,
/// and from then on only that task calls `receive(_:)` and `receive(completion:)`, so the
/// subscriber is never touched from two isolation domains concurrently (design rule 3).
@usableFromInline
struct UncheckedSendableSubscriber<Base: Subscriber>: @unchecked Sendable {
    @usableFromInline
    let base: Base

    @usableFromInline
    init(_ base: Base) { self.base = base }
}
