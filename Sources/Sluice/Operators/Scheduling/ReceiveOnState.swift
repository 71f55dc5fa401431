/// The state of a `receive(on:)` subscription, under its lock: the signals waiting for the
/// scheduler, and whether a drain is scheduled or running (at most one is, so signals stay
/// serial on any scheduler).
///
/// ```text
/// idle ──signal arrives: queue it, schedule the drain──▶ draining
///   ▲                                                    │ each run delivers the signals
///   └──────── the queue is empty ◀───────────────────────┘ queued when it started
/// ```
@usableFromInline
struct ReceiveOnState<Downstream: Subscriber> {
    @usableFromInline
    enum Signal {
        case subscription
        case value(Downstream.Input)
        case completion(Subscribers.Completion<Downstream.Failure>)
    }

    /// The downstream, until the stream ends (cancel, or its completion delivered).
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream = SubscriptionSlot.awaiting
    @usableFromInline var signals = FIFO<Signal>()
    /// A drain is scheduled or running.
    @usableFromInline var draining = false
    /// The drain, as handed to the scheduler; dropped when the stream ends.
    @usableFromInline var drain: (@Sendable () -> Void)?

    @inlinable
    init(downstream: Downstream) { self.downstream = downstream }

    /// Queues `signal`; returns the drain if the caller must schedule it.
    @inlinable
    mutating func enqueue(_ signal: Signal) -> (@Sendable () -> Void)? {
        guard downstream != nil else { return nil }
        signals.append(signal)
        guard !draining else { return nil }
        draining = true
        return drain
    }

    /// What the drain delivers next, with the downstream to deliver it to; nil when it is done
    /// (the queue is empty, or `budget` signals were delivered in this run and the drain must
    /// be scheduled again: then `reschedule` is set).
    @inlinable
    mutating func next(budget: inout Int, reschedule: inout (@Sendable () -> Void)?) -> (Signal, Downstream)? {
        guard let downstream, !signals.isEmpty else {
            draining = false
            return nil
        }
        guard budget > 0 else {
            reschedule = drain
            return nil
        }
        budget -= 1
        let signal = signals.popFirst()!
        if case .completion = signal { end() }
        return (signal, downstream)
    }

    /// Ends the stream: nothing more is delivered, the downstream and the drain are let go.
    /// Returns the upstream subscription to cancel, if it was still live.
    @inlinable
    @discardableResult
    mutating func end() -> (any Subscription)? {
        downstream = nil
        signals = FIFO()
        drain = nil
        return upstream.end()?.upstream
    }
}
