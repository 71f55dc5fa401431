import Dispatch
import Sluice

/// A scheduler on virtual time that runs every action as soon as it is scheduled, moving its clock to the
/// action's due time first: a delay of a second passes at once, and ``now`` says a second has passed.
///
/// Use it where a test wants a time-based pipeline to run straight through, with the times it would have seen.
/// Each action runs on the scheduling thread before `schedule` returns, unless an action is already running
/// (a nested or concurrent schedule): then it runs right after, in order, so actions never overlap or nest.
/// A repeating action runs once, as on Sluice's `ImmediateScheduler`.
///
/// <!-- snippet: ImmediateTestSchedulerDelay -->
/// ```swift
/// let scheduler = ImmediateTestScheduler()
/// let recorder = RecordingSubscriber<Int, Never>()
/// Just(1).delay(for: .seconds(5), scheduler: scheduler).subscribe(recorder)
/// // recorder.values == [1], then .finished; scheduler.now is 10 seconds after the start:
/// // the value's delay passed at once, then the completion's, scheduled after it
/// ```
///
/// Its actions are `@Sendable` and checked at every call (a `SendableActionScheduler`): capturing
/// non-`Sendable` or actor-isolated state is an error, not the warning that a generic `Scheduler` gives.
public final class ImmediateTestScheduler<SchedulerTimeType: Strideable & Sendable, SchedulerOptions>:
    SendableActionScheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private struct State: Sendable {
        var now: SchedulerTimeType
        var running = false
        var queue = FIFO<(due: SchedulerTimeType, action: @Sendable () -> Void)>()
    }

    private let state: Locked<State>

    /// A scheduler whose clock starts at `now`.
    public init(now: SchedulerTimeType) { state = Locked(State(now: now)) }

    /// The due time of the last action run (or the start).
    public var now: SchedulerTimeType { state.withLock { $0.now } }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Runs `action` now.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        run(action, at: nil)
    }

    /// Moves the clock to `date` (if it is later) and runs `action`.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        run(action, at: date)
    }

    /// Moves the clock to `date` (if it is later) and runs `action` once; the cancellable does nothing.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        run(action, at: date)
        return AnyCancellable(isolation: nil) {}
    }

    /// Runs `action` (and whatever is scheduled meanwhile) unless an outer call or another thread is running
    /// actions, which then runs it.
    private func run(_ action: @escaping @Sendable () -> Void, at due: SchedulerTimeType?) {
        let runsNow = state.withLock { state -> Bool in
            let due = due ?? state.now
            if state.running {
                state.queue.append((due, action))
                return false
            }
            state.running = true
            if state.now < due { state.now = due }
            return true
        }
        guard runsNow else { return }
        var next: (@Sendable () -> Void)? = action
        while let current = next {
            current()
            next = state.withLock { state in
                guard let (due, queued) = state.queue.popFirst() else {
                    state.running = false
                    return nil
                }
                if state.now < due { state.now = due }
                return queued
            }
        }
    }
}

extension ImmediateTestScheduler: OwnScheduler {}

extension ImmediateTestScheduler where SchedulerTimeType == VirtualTime, SchedulerOptions == Never {
    /// A scheduler whose clock starts at zero nanoseconds.
    public convenience init() { self.init(now: SchedulerTimeType(nanoseconds: 0)) }
}

