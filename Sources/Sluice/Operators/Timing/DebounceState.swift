/// The state machine of `debounce(for:scheduler:options:)`, under its ``TimedSubscription``'s lock.
///
/// The latest value waits for `dueTime` of quiet: each value replaces the one waiting and moves the
/// ``Deadline`` to `dueTime` after it. When the deadline passes, the value goes to the downstream if it has
/// demand, and is dropped otherwise. The completion (a failure too) drops the value still waiting, as
/// Combine's does, and is delivered at the scheduler's next turn.
///
/// ```text
/// receive(v)          ──▶ waiting = v, deadline = now + dueTime (the timer scheduled if none is)
/// fire(.timer)        ──▶ deadline passed: deliver waiting; moved: schedule again
/// receive(completion) ──▶ waiting = nil, deadline off, hop
/// fire(.signal)       ──▶ deliver the completion
/// ```
@usableFromInline
struct DebounceState<Output, Failure: Error, Time: Strideable>: TimedLogic {
    @usableFromInline let dueTime: Time.Stride
    @usableFromInline var waiting: Output?
    @usableFromInline var deadline = Deadline<Time>()
    @usableFromInline var completion: Subscribers.Completion<Failure>?

    @inlinable init(dueTime: Time.Stride) { self.dueTime = dueTime }

    @inlinable static var throttlesEdges: Bool { false }
    @inlinable var name: String { "Debounce" }

    @inlinable
    mutating func receive(_ value: Output, now: Time, demand: Subscribers.Demand) -> TimedPlan<Time> {
        waiting = value
        return TimedPlan(timerAt: deadline.set(now.advanced(by: dueTime)))
    }

    @inlinable
    mutating func receive(completion: Subscribers.Completion<Failure>, now: Time) -> TimedPlan<Time> {
        waiting = nil
        deadline.clear()
        self.completion = completion
        return TimedPlan(hop: true)
    }

    @inlinable
    mutating func fire(_ action: TimedAction, now: Time) -> TimedFiring<Output, Failure, Time> {
        var firing = TimedFiring<Output, Failure, Time>()
        switch action {
        case .signal:
            firing.completion = completion.take()
        case .timer:
            switch deadline.fired() {
            case .expired: firing.value = waiting.take()
            case .rescheduled(let time): firing.plan.timerAt = time
            case .off: break
            }
        }
        return firing
    }

    @inlinable
    mutating func reset() {
        waiting = nil
        deadline.clear()
    }
}
