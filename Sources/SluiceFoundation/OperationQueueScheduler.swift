import Dispatch
import Foundation
import Sluice

/// `OperationQueue` as a scheduler, as Combine declares it: `receive(on: queue)`.
///
/// Each action runs as an operation on the queue, so the queue's rules apply: on a queue whose
/// `maxConcurrentOperationCount` is 1 they run one at a time in the order they were added; on
/// others possibly at once (`receive(on:)` keeps its own order whatever the queue). A timed
/// action is added to the queue at once, as an operation that becomes ready at its date (a
/// Dispatch timer waits for it), as in Combine, so it does not hold up the operations added
/// meanwhile; a suspended queue holds it as it holds any operation.
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

    /// Adds `action` to the queue at once as an operation that becomes ready at `date`, as
    /// Combine's does (one `addOperation(_:)` call, of an operation that is not a
    /// `BlockOperation`): the queue runs it then, and the operations added meanwhile are not
    /// held up by it.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        let operation = TimedOperation(action: action, repetition: nil)
        addOperation(operation)
        operation.becomeReady(after: date.date.timeIntervalSinceNow)
    }

    /// Adds `action` to the queue as an operation that becomes ready at `date`; each run, once
    /// it has returned, adds the next, ready `interval` later, until the returned cancellable
    /// is cancelled or released, as Combine's does.
    ///
    /// Runs never overlap, even on a concurrent queue, and the interval counts from the end of
    /// a run. After `cancel()` returns, no run starts (one already running finishes).
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let repetition = TimedRepetition(queue: self, interval: interval.timeInterval)
        repetition.add(action, after: date.date.timeIntervalSinceNow)
        return AnyCancellable(isolation: nil) { repetition.cancel() }
    }
}

/// An operation added to its queue at once that becomes ready only after a delay, as
/// Combine's timed operations: its `isReady` turns true (announced through key-value
/// observing, which the queue watches) when a Dispatch timer fires, or when it is cancelled.
/// It runs its action once; cancelling it (or running it) drops the action.
///
/// `@unchecked Sendable` restates `Operation`'s own conformance: its added state is behind a
/// lock, and the action it runs is `@Sendable`.
private final class TimedOperation: Operation, Cancellable, @unchecked Sendable {
    private struct State {
        var action: (@Sendable () -> Void)?
        var ready = false
    }

    private let state: Locked<State>
    /// The repeating schedule this run belongs to, which adds the next after it.
    private let repetition: TimedRepetition?

    init(action: @escaping @Sendable () -> Void, repetition: TimedRepetition?) {
        state = Locked(State(action: action))
        self.repetition = repetition
        super.init()
    }

    /// Becomes ready `delay` seconds from now (at once for a date that has passed).
    func becomeReady(after delay: TimeInterval) {
        DispatchQueue.global().asyncAfter(deadline: .now() + Swift.max(delay, 0)) { [weak self] in self?.markReady() }
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

    /// Ready at its date, or once cancelled (so that the queue lets it go at once).
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

/// A repeating action on an `OperationQueue`: the operation waiting for its next run, until
/// cancelled.
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

    /// Adds the next run of `action`, ready after `delay` (the interval when `nil`), unless
    /// cancelled.
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
