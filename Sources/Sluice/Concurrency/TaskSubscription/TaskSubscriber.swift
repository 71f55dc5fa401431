/// The subscriber of a subscription whose values come from one task (``TaskSubscription``): the task signals
/// it through ``receive(_:)`` and ``receive(completion:)`` (or the request that takes an offered value does),
/// and ``release()`` (the subscription's cancel) lets it go at once, even while the task is inside user code
/// that ignores cancellation (rule 4: after a cancel the subscription holds no subscriber). When to let go
/// is a ``TerminationGate``'s decision, as for a sink: whoever the gate tells to release (the canceller, or
/// the signal in progress when it came) drops the subscriber, once.
///
/// Safe to mark `@unchecked Sendable`: the slot is written only by whoever drops it, once, with no signal in
/// progress and none after; the subscriber is signalled by the one task or, while it is suspended with an
/// offer, by the one request that took the offer under the subscription's lock and resumes the task only
/// after the signal returned, so it is never used from two threads at once.
@usableFromInline
final class TaskSubscriber<Base: Subscriber>: TaskSubscriberReleasing, @unchecked Sendable {
    @usableFromInline let gate = TerminationGate()
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
        defer { if gate.exit() { drop() } }
        guard gate.enter() else { return nil }
        return slot.pointee.unsafelyUnwrapped.receive(input)
    }

    /// Delivers the completion unless released, then lets the subscriber go.
    @inlinable
    func receive(completion: Subscribers.Completion<Base.Failure>) {
        guard gate.enterFinal() else { return }
        slot.pointee.unsafelyUnwrapped.receive(completion: completion)
        if gate.exit() { drop() }
    }

    /// Lets the subscriber go now, or as soon as the signal in progress returns. Idempotent, from any thread.
    @usableFromInline
    func release() {
        if gate.terminate() { drop() }
    }

    /// Lets the subscriber go (the gate tells exactly one caller to).
    @usableFromInline
    func drop() {
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
