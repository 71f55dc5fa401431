import Dispatch
import Foundation
import Sluice

/// `OperationQueue` as a scheduler, as Combine declares it: `receive(on: queue)`.
///
/// Each action runs as an operation on the queue, so the queue's rules apply: on a queue whose
/// `maxConcurrentOperationCount` is 1 they run one at a time in the order they were added; on
/// others possibly at once (`receive(on:)` keeps its own order whatever the queue). A timed
/// action is added to the queue when its date has passed (a Dispatch timer waits for it), so
/// it does not hold up the operations added meanwhile; a suspended queue holds it as it holds
/// any operation.
///
/// Its actions are `@Sendable` and checked at every call, short forms included (it is a
/// `SendableActionScheduler`): a closure that captures non-`Sendable` or actor-isolated
/// state is an error, not the warning that a generic `Scheduler` gives.
extension OperationQueue: SendableActionScheduler {
    /// Options for the operations a queue runs; there are none.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` to the queue as a `BlockOperation`, as Combine's does (one
    /// `addOperation(_:)` call, which a queue subclass can observe).
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        addOperation(BlockOperation(block: action))
    }

    /// Adds `action` to the queue once `date` has passed (at once if it has already).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        let delay = date.date.timeIntervalSinceNow
        guard delay > 0 else { return addOperation(action) }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in addOperation(action) }
    }

    /// Adds `action` to the queue at `date` and every `interval` after, until the returned
    /// cancellable is cancelled or released.
    ///
    /// Runs never overlap, even on a concurrent queue: a tick that comes while the previous run
    /// is still waiting or running is skipped, as a `Timer` skips the firings it missed. After
    /// `cancel()` returns, no run starts (one already running finishes).
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let ticks = RepeatingOperation(queue: self, action: action)
        let timer = DispatchSource.makeTimerSource()
        timer.setEventHandler { ticks.tick() }
        let leeway = DispatchTimeInterval.nanoseconds(Int(Swift.min(Swift.max(tolerance.timeInterval, 0), 9e9) * 1e9))
        timer.schedule(
            deadline: .now() + Swift.max(date.date.timeIntervalSinceNow, 0), repeating: Swift.max(interval.timeInterval, 0),
            leeway: leeway)
        timer.resume()
        return AnyCancellable(isolation: nil) {
            ticks.cancel()
            timer.cancel()
        }
    }
}

/// The state of one repeating action on an `OperationQueue`: whether a run is out (added to
/// the queue and not finished) and whether it was cancelled.
private final class RepeatingOperation: Sendable {
    private struct State {
        var running = false
        var cancelled = false
    }

    private let queue: OperationQueue
    private let action: @Sendable () -> Void
    private let state = Locked(State())

    init(queue: OperationQueue, action: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.action = action
    }

    /// The timer fired: adds a run unless one is out or the action was cancelled.
    func tick() {
        let adds = state.withLock { state -> Bool in
            guard !state.running, !state.cancelled else { return false }
            state.running = true
            return true
        }
        guard adds else { return }
        queue.addOperation { [self] in
            if !state.withLock({ $0.cancelled }) { action() }
            state.withLock { $0.running = false }
        }
    }

    func cancel() { state.withLock { $0.cancelled = true } }
}

extension OperationQueue: CoalescingScheduler {}
