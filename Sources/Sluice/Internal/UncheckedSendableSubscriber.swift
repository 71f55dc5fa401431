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

/// The operation a ``TaskSubscription``'s task runs, built in (client-specialised) generic
/// code around an ``UncheckedSendableSubscriber``.
///
/// Safe for the same reason as that type: the operation captures only Sendable values and
/// the subscriber box, and it runs once, in the subscription's one task. Without the box
/// Swift 6 rejects the capture of the generic subscriber's metatype in the task's closure
/// (`SendableMetatypes`); erasing through a protocol instead would stop specialisation.
@usableFromInline
struct UncheckedSendableOperation: @unchecked Sendable {
    @usableFromInline
    let run: (TaskSubscription) async -> Void

    @usableFromInline
    init(_ run: @escaping (TaskSubscription) async -> Void) { self.run = run }
}
