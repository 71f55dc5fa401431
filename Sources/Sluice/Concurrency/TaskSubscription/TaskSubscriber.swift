import Synchronization

/// The subscriber of a subscription whose values come from one task (``TaskSubscription``):
/// the task signals it through ``receive(_:)`` and ``receive(completion:)`` (or, for a value
/// the suspended task offers, the request that takes the offer does), and
/// ``release()`` (the subscription's cancel) lets it go at once — also while the task is still
/// inside user code that ignores cancellation, such as an `AsyncSequence` whose `next()` does
/// not return for a long time (rule 4: after a cancel the subscription holds no subscriber).
///
/// The state word (`state`):
/// ```text
///   bit 0 "released": set once by release(); afterwards no signal reaches the subscriber
///   bit 1 "dropped":  the subscriber has been let go (the slot is nil)
///   bits 2…:          signals in progress (0 or 1: one party signals at a time)
///
///   release() with no signal in progress ──▶ released, dropped (release drops it)
///   release() during a signal ──▶ released; the signal, ending, sees "released, nothing in
///                                 progress, not dropped" and drops it
/// ```
/// Safe to mark `@unchecked Sendable`: the slot is written only by whoever drops it, and the
/// word above guarantees that happens once, with no signal in progress, and that no signal
/// starts afterwards; the subscriber itself is signalled by the one task (it starts after
/// `receive(subscription:)` has returned) or, while that task is suspended with an offer, by
/// the one request that took the offer under the subscription's lock and resumes the task only
/// after the signal returned; so it is never used from two threads at once.
@usableFromInline
final class TaskSubscriber<Base: Subscriber>: TaskSubscriberReleasing, @unchecked Sendable {
    @usableFromInline static var released: Int { 1 }
    @usableFromInline static var dropped: Int { 2 }
    @usableFromInline static var signalling: Int { 4 }

    @usableFromInline let state = Atomic<Int>(0)
    @usableFromInline let slot: UnsafeMutablePointer<Base?>

    @usableFromInline
    init(_ base: Base) {
        slot = .allocate(capacity: 1)
        slot.initialize(to: base)
    }

    deinit {
        slot.deinitialize(count: 1)
        slot.deallocate()
    }

    /// Delivers `input`; nil once released (cancelled), when nothing is delivered.
    @inlinable
    func receive(_ input: Base.Input) -> Subscribers.Demand? {
        guard enter() else { return nil }
        defer { leave() }
        return slot.pointee.unsafelyUnwrapped.receive(input)
    }

    /// Delivers the completion unless released, then lets the subscriber go.
    @inlinable
    func receive(completion: Subscribers.Completion<Base.Failure>) {
        if enter() {
            slot.pointee.unsafelyUnwrapped.receive(completion: completion)
            leave()
        }
        release()
    }

    /// Lets the subscriber go now, or as soon as the signal in progress returns. Idempotent,
    /// from any thread.
    @usableFromInline
    func release() {
        let before = state.bitwiseOr(Self.released, ordering: .acquiringAndReleasing).oldValue
        if before == 0 { drop() }
    }

    /// Starts a signal; false (and nothing started) once released.
    @inlinable
    func enter() -> Bool {
        let before = state.wrappingAdd(Self.signalling, ordering: .acquiring).oldValue
        guard before & Self.released != 0 else { return true }
        leave()
        return false
    }

    /// Ends a signal; the last one out after a release drops the subscriber.
    @inlinable
    func leave() {
        let after = state.wrappingSubtract(Self.signalling, ordering: .acquiringAndReleasing).newValue
        if after == Self.released { drop() }
    }

    /// Lets the subscriber go (once: the word says so).
    @usableFromInline
    func drop() {
        let before = state.bitwiseOr(Self.dropped, ordering: .acquiringAndReleasing).oldValue
        guard before & Self.dropped == 0 else { return }
        let subscriber = slot.pointee.take()
        withExtendedLifetime(subscriber) {}
    }
}

/// What a ``TaskSubscription`` tells to let its subscriber go when it is cancelled.
@usableFromInline
protocol TaskSubscriberReleasing: AnyObject, Sendable {
    func release()
}

/// The operation a ``TaskSubscription``'s task runs, built in (client-specialised) generic
/// code around a ``TaskSubscriber``; see ``UncheckedSendableBody`` for why it is safe.
@usableFromInline
typealias UncheckedSendableOperation = UncheckedSendableBody<TaskSubscription>
