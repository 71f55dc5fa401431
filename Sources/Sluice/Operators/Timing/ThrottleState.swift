/// The state machine of `throttle(for:scheduler:latest:)`, under its ``TimedSubscription``'s lock.
///
/// At most one element goes out per `interval`. An element that arrives while none is waiting is emitted at
/// once (at the scheduler's next turn) if the last emission is at least `interval` old, else when it will be;
/// so the first element goes out at once. While one waits, a newer element replaces it (`latest`) or is
/// dropped (`!latest`). An element that arrives while the downstream has no demand is dropped, as in Combine.
/// The completion waits for the element waiting, if any, and is delivered right after it; else at the
/// scheduler's next turn.
///
/// ```text
/// idle ──receive(v), demand──▶ waiting(v) ──fire(.signal)──▶ deliver v (and a completion) ──▶ idle
///                                 └─receive(w): latest ? waiting(w) : waiting(v)
/// ```
@usableFromInline
struct ThrottleState<Output, Failure: Error, Time: Strideable>: TimedLogic {
    @usableFromInline let interval: Time.Stride
    @usableFromInline let latest: Bool
    @usableFromInline var waiting: Output?
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// An emission is scheduled.
    @usableFromInline var scheduled = false
    @usableFromInline var lastEmission: Time?

    @inlinable
    init(interval: Time.Stride, latest: Bool) {
        self.interval = interval
        self.latest = latest
    }

    @inlinable static var throttlesEdges: Bool { true }
    @inlinable var name: String { "Throttle" }

    @inlinable
    mutating func receive(_ value: Output, now: Time, demand: Subscribers.Demand) -> TimedPlan<Time> {
        if scheduled {
            // The waiting element has its demand already.
            if latest && waiting != nil { waiting = value }
            return TimedPlan()
        }
        guard demand > .none else { return TimedPlan() }
        waiting = value
        scheduled = true
        guard let lastEmission, case let next = lastEmission.advanced(by: interval), now < next else {
            return TimedPlan(hop: true)
        }
        return TimedPlan(signalAt: next)
    }

    @inlinable
    mutating func receive(completion: Subscribers.Completion<Failure>, now: Time) -> TimedPlan<Time> {
        self.completion = completion
        if scheduled { return TimedPlan() }
        scheduled = true
        return TimedPlan(hop: true)
    }

    @inlinable
    mutating func fire(_ action: TimedAction, now: Time) -> TimedFiring<Output, Failure, Time> {
        var firing = TimedFiring<Output, Failure, Time>()
        scheduled = false
        firing.value = waiting.take()
        if firing.value != nil { lastEmission = now }
        firing.completion = completion.take()
        return firing
    }

    @inlinable
    mutating func reset() {
        waiting = nil
        completion = nil
    }
}
