/// The state of one `timeout(_:scheduler:options:customError:)` subscription (``TimeoutSubscription``), under
/// its lock: the ``QueuedSignals`` that values and the completion hop through, and the wait.
///
/// The wait is a repeating timer on the scheduler, as in Combine: started after the
/// subscription, again at the first request, and again at every value (the previous one
/// cancelled). `generation` tells the current timer from one a scheduler failed to cancel.
///
/// ```text
/// subscribed ──value──▶ timer restarted, value hops
///     ├──upstream completion──▶ timer cancelled, completion hops
///     ├──timer runs──▶ terminated: upstream cancelled, queue dropped, customError() or .finished
///     └──cancel──────▶ terminated: downstream, action and timer dropped
/// ```
struct TimeoutState<Downstream: Subscriber> {
    var signals: QueuedSignals<Downstream>
    var timer: (any Cancellable)?
    /// Counts the timers started; a timer acts only if it is the last one.
    var generation: UInt64 = 0
    /// The downstream has requested once (the wait starts over then).
    var requested = false
    /// The thread inside the scheduler's `schedule(after:interval:...)` for the current timer
    /// (0 when none): a timer that runs on it ran inside that call.
    var schedulingThread: UInt = 0

    init(downstream: Downstream) { signals = QueuedSignals(downstream: downstream) }

    /// What ending the stream took away, to cancel and release after unlocking.
    struct Ended {
        var upstream: (any Subscription)?
        var timer: (any Cancellable)?
        var action: (@Sendable () -> Void)?
    }

    /// Ends the stream: no more signals are taken, and what is on its way is dropped.
    mutating func end() -> Ended {
        let (upstream, action) = signals.end()
        defer { timer = nil }
        return Ended(upstream: upstream, timer: timer, action: action)
    }
}
