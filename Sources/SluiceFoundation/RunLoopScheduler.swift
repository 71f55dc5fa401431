import Foundation
import Sluice

/// `RunLoop` as a scheduler, as Combine declares it: `receive(on: RunLoop.main)`,
/// `debounce(for: .milliseconds(300), scheduler: RunLoop.main)`.
///
/// Actions run on the thread that runs the run loop, in its `.default` mode, and only while someone runs it:
/// on Apple platforms the main run loop runs by itself in an app; on Linux, and for any run loop of your own, a
/// thread must call `RunLoop.run(mode:before:)` (or `run(until:)`). Adding work from another thread is
/// supported, and that is all this scheduler does from the calling thread. Timed actions are `Timer`s, so they
/// wait while the run loop is busy or runs in another mode. Its actions are `@Sendable` and checked at every
/// call (a `SendableActionScheduler`): capturing non-`Sendable` state is an error.
extension RunLoop: SendableActionScheduler {
    /// Options for the actions a run loop runs; there are none.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Zero: timers fire as close to their date as the run loop allows.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` the next time the run loop runs in its default mode (never inline), after the actions
    /// scheduled before it this way.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        perform(inModes: [.default], block: action)
        // A block alone does not wake a run loop waiting for its next timer or source; a due timer does.
        addTimer(firing: .distantPast, interval: 0, tolerance: 0) {}
    }

    /// Runs `action` once, from a `Timer` on the run loop, no sooner than `date`.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        addTimer(firing: date.date, interval: 0, tolerance: tolerance, action)
    }

    /// Runs `action` from `date` on, every `interval`, from a repeating `Timer` on the run loop, until the
    /// returned cancellable is cancelled or released. Runs never overlap: they are all on the run loop's thread.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let timer = addTimer(firing: date.date, interval: interval.timeInterval, tolerance: tolerance, action)
        return AnyCancellable(isolation: nil) { RunLoopTimers.invalidate(timer) }
    }

    @discardableResult
    private func addTimer(
        firing date: Date, interval: TimeInterval, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping @Sendable () -> Void
    ) -> Timer {
        let timer = RunLoopTimers.timer(firing: date, interval: interval, action)
        timer.tolerance = Swift.max(tolerance.timeInterval, 0)
        add(timer, forMode: .default)
        return timer
    }
}

extension RunLoop: CoalescingScheduler {}
