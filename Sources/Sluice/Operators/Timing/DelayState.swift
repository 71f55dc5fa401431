/// The state machine of `delay(for:tolerance:scheduler:options:)`, under its
/// ``TimedSubscription``'s lock.
///
/// Every signal from the upstream, values and completion alike, waits in a queue and is
/// scheduled `interval` after it arrived; each run of the signal action delivers the oldest.
/// The runs come in the order their signals arrived (each is due `interval` after its
/// arrival), and the queue keeps that order even where a scheduler runs two at once.
///
/// ```text
/// receive(v) / receive(completion) ──▶ queue.append, schedule at now + interval
/// fire(.signal)                     ──▶ deliver queue.popFirst()
/// ```
@usableFromInline
struct DelayState<Output, Failure: Error, Time: Strideable>: TimedLogic {
    @usableFromInline let interval: Time.Stride
    @usableFromInline var queue = FIFO<TimedSignal<Output, Failure>>()

    @inlinable init(interval: Time.Stride) { self.interval = interval }

    @inlinable static var dropsValues: Bool { false }
    @inlinable var name: String { "Delay" }

    @inlinable
    mutating func receive(_ value: Output, now: Time, demand: Subscribers.Demand) -> TimedPlan<Time> {
        queue.append(.value(value))
        return TimedPlan(signalAt: now.advanced(by: interval))
    }

    @inlinable
    mutating func receive(completion: Subscribers.Completion<Failure>, now: Time) -> TimedPlan<Time> {
        queue.append(.completion(completion))
        return TimedPlan(signalAt: now.advanced(by: interval))
    }

    @inlinable
    mutating func fire(_ action: TimedAction, now: Time) -> TimedFiring<Output, Failure, Time> {
        queue.popFirst()?.firing() ?? TimedFiring()
    }

    @inlinable mutating func reset() { queue = FIFO() }
}
