import Dispatch
import Foundation
import Sluice

/// `OperationQueue` as a scheduler, as Combine declares it: `receive(on: queue)`.
///
/// Each action runs as an operation on the queue, so the queue's rules apply: with a
/// `maxConcurrentOperationCount` of 1 they run one at a time in the order added; otherwise possibly at once
/// (`receive(on:)` keeps its own order). A timed action is added at once, as an operation that becomes ready at
/// its date, as in Combine, so it does not hold up the operations added meanwhile. Its actions are `@Sendable`
/// and checked at every call (a `SendableActionScheduler`): capturing non-`Sendable` state is an error.
extension OperationQueue: SendableActionScheduler {
    /// Options for the operations a queue runs; there are none.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` to the queue as a `BlockOperation` in one `addOperation(_:)` call, as Combine's does.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        addOperation(BlockOperation(block: action))
    }

    /// Adds `action` to the queue at once as an operation (not a `BlockOperation`) that becomes ready at `date`,
    /// as Combine's does: the operations added meanwhile are not held up by it.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        let operation = TimedOperation(action: action, repetition: nil)
        addOperation(operation)
        operation.becomeReady(after: date.date.timeIntervalSinceNow)
    }

    /// Adds `action` to the queue as an operation that becomes ready at `date`; each run, once it has returned,
    /// adds the next, ready `interval` later, until the returned cancellable is cancelled or released, as
    /// Combine's does. Runs never overlap, even on a concurrent queue. After `cancel()` returns, no run starts.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let repetition = TimedRepetition(queue: self, interval: interval.timeInterval)
        repetition.add(action, after: date.date.timeIntervalSinceNow)
        return AnyCancellable(isolation: nil) { repetition.cancel() }
    }
}

/// An operation whose `isReady` turns true (announced through KVO, which the queue watches) when a Dispatch
/// timer fires or it is cancelled. `@unchecked Sendable` restates `Operation`'s own conformance: its added
/// state is behind a lock, and the action it runs is `@Sendable`.
private final class TimedOperation: Operation, Cancellable, @unchecked Sendable {
    private struct State {
        var action: (@Sendable () -> Void)?
        var ready = false
    }

    private let state: Locked<State>
    private let repetition: TimedRepetition?

    init(action: @escaping @Sendable () -> Void, repetition: TimedRepetition?) {
        state = Locked(State(action: action))
        self.repetition = repetition
        super.init()
    }

    func becomeReady(after delay: TimeInterval) {
        DispatchQueue.global().asyncAfter(deadline: .now() + Swift.max(delay, 0)) { [weak self] in
            self?.markReady()
        }
    }

    private func markReady() {
        #if canImport(Darwin)
        willChangeValue(forKey: "isReady")
        state.withLock { $0.ready = true }
        didChangeValue(forKey: "isReady")
        #else
        willChangeValue(for: \.isReady)
        state.withLock { $0.ready = true }
        didChangeValue(for: \.isReady)
        #endif
    }

    /// Ready once cancelled too, so that the queue lets it go at once.
    override var isReady: Bool { super.isReady && (isCancelled || state.withLock { $0.ready }) }

    override func main() {
        guard let action = state.withLock({ $0.action.take() }) else { return }
        action()
        repetition?.add(action, after: nil)
    }

    override func cancel() {
        let action = state.withLock { $0.action.take() }
        withExtendedLifetime(action) {}  // released after unlocking
        super.cancel()
        markReady()
    }
}

private final class TimedRepetition: Sendable {
    private struct State {
        var waiting: TimedOperation?
        var cancelled = false
    }

    private let queue: OperationQueue
    private let interval: TimeInterval
    private let state = Locked(State())

    init(queue: OperationQueue, interval: TimeInterval) {
        self.queue = queue
        self.interval = interval
    }

    /// `delay` nil: the interval.
    func add(_ action: @escaping @Sendable () -> Void, after delay: TimeInterval?) {
        let operation = TimedOperation(action: action, repetition: self)
        let adds = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.waiting = operation
            return true
        }
        guard adds else { return }
        queue.addOperation(operation)
        operation.becomeReady(after: delay ?? interval)
    }

    func cancel() {
        let waiting = state.withLock { state -> TimedOperation? in
            state.cancelled = true
            return state.waiting.take()
        }
        waiting?.cancel()
    }
}

extension OperationQueue: CoalescingScheduler {}
