/// The state machine of `timeout(_:scheduler:options:customError:)`, under its
/// ``TimedSubscription``'s lock.
///
/// The ``Deadline`` is `interval` after the subscription, set again at the first request (as
/// in Combine) and after every element. Elements and the completion go to the downstream at
/// the scheduler's next turn, in order, through a queue. The completion switches the deadline
/// off; a deadline that passes ends the stream: the elements still queued are dropped, the
/// upstream is cancelled and the downstream gets `customError()` (`.finished` without it).
///
/// ```text
/// subscribed / first request ──▶ deadline = now + interval
/// receive(v)                 ──▶ deadline = now + interval, queue v, hop
/// receive(completion)        ──▶ deadline off, queue it, hop
/// fire(.signal)              ──▶ deliver the oldest queued
/// fire(.timer)               ──▶ passed: timed out; moved: schedule again
/// ```
@usableFromInline
struct TimeoutState<Output, Failure: Error, Time: Strideable>: TimedLogic {
    @usableFromInline let interval: Time.Stride
    @usableFromInline let customError: (() -> Failure)?
    @usableFromInline var queue = FIFO<TimedSignal<Output, Failure>>()
    @usableFromInline var deadline = Deadline<Time>()
    @usableFromInline var requested = false

    @inlinable
    init(interval: Time.Stride, customError: (() -> Failure)?) {
        self.interval = interval
        self.customError = customError
    }

    @inlinable static var dropsValues: Bool { false }
    @inlinable var name: String { "Timeout" }

    @inlinable
    mutating func subscribed(now: Time) -> TimedPlan<Time> {
        TimedPlan(timerAt: deadline.set(now.advanced(by: interval)))
    }

    @inlinable
    mutating func requested(now: Time) -> TimedPlan<Time> {
        guard !requested else { return TimedPlan() }
        requested = true
        return TimedPlan(timerAt: deadline.set(now.advanced(by: interval)))
    }

    @inlinable
    mutating func receive(_ value: Output, now: Time, demand: Subscribers.Demand) -> TimedPlan<Time> {
        queue.append(.value(value))
        return TimedPlan(hop: true, timerAt: deadline.set(now.advanced(by: interval)))
    }

    @inlinable
    mutating func receive(completion: Subscribers.Completion<Failure>, now: Time) -> TimedPlan<Time> {
        deadline.clear()
        queue.append(.completion(completion))
        return TimedPlan(hop: true)
    }

    @inlinable
    mutating func fire(_ action: TimedAction, now: Time) -> TimedFiring<Output, Failure, Time> {
        switch action {
        case .signal:
            return queue.popFirst()?.firing() ?? TimedFiring()
        case .timer:
            var firing = TimedFiring<Output, Failure, Time>()
            switch deadline.fired() {
            case .expired:
                queue = FIFO()
                firing.timedOut = true
                firing.customError = customError
            case .rescheduled(let time): firing.plan.timerAt = time
            case .off: break
            }
            return firing
        }
    }

    @inlinable
    mutating func reset() {
        queue = FIFO()
        deadline.clear()
    }
}
