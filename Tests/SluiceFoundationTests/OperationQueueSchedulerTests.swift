import Foundation
import Sluice
import SluiceFoundation
import SluiceTesting
import Testing

/// A queue that runs one operation at a time.
private func serialQueue() -> OperationQueue {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    return queue
}

/// A queue that notes the operations handed to it.
///
/// `@unchecked Sendable` restates `OperationQueue`'s own conformance; its one added property
/// is behind a lock.
private final class RecordingQueue: OperationQueue, @unchecked Sendable {
    let added = Locked<[Operation]>([])
    /// The number of operations added so far, after each addition.
    let additions = AsyncStream<Int>.makeStream()

    override func addOperation(_ op: Operation) {
        let count = added.withLock { added in
            added.append(op)
            return added.count
        }
        super.addOperation(op)
        additions.continuation.yield(count)
    }

    /// Returns once `count` operations have been added.
    func waitForAdditions(_ count: Int) async {
        await waitUntil { $0.count >= count }
    }

    /// Returns once the operations added satisfy `condition`.
    func waitUntil(_ condition: ([Operation]) -> Bool) async {
        if condition(added.withLock { $0 }) { return }
        for await _ in additions.stream where condition(added.withLock { $0 }) { return }
    }
}

@Suite(.timeLimit(.minutes(12)))
struct OperationQueueSchedulerTests {
    @Test("an action scheduled now is one BlockOperation added to the queue, as Combine's")
    func scheduleNowAddsOneBlockOperation() async {
        let queue = RecordingQueue()
        let (subject, recorder) = reports()
        defer { recorder.cancel() }
        queue.schedule { subject.send(Ran(id: 1, thread: 0)) }
        await recorder.waitForValues(count: 1)
        let added = queue.added.withLock { $0 }
        #expect(added.count == 1 && added.first is BlockOperation)
    }

    @Test func actionsOnASerialQueueRunInTheOrderScheduled() async {
        let queue = serialQueue()
        let (subject, recorder) = reports()
        defer { recorder.cancel() }
        for id in 1...100 { queue.schedule { subject.send(Ran(id: id, thread: 0)) } }
        await recorder.waitForValues(count: 100)
        #expect(recorder.values.map(\.id) == Array(1...100))
        #expect(recorder.violations.isEmpty)
    }

    @Test func anActionScheduledAfterADateRunsNoSoonerAndDoesNotHoldUpTheQueue() async {
        let queue = serialQueue()
        let ran = RecordingSubscriber<Date, Never>()
        defer { ran.cancel() }
        let subject = PassthroughSubject<Date, Never>()
        subject.subscribe(ran)
        let due = queue.now.advanced(by: .milliseconds(20))
        queue.schedule(after: due) { subject.send(Date()) }
        queue.schedule { subject.send(.distantPast) }
        queue.schedule(after: queue.now.advanced(by: -1)) { subject.send(.distantPast) }
        await ran.waitForValues(count: 3)
        #expect(ran.values[0] == .distantPast && ran.values[1] == .distantPast)
        #expect(ran.values[2] >= due.date)
    }

    @Test("a timed action is one operation added at once, not a BlockOperation and not ready before its date, that runs once, as Combine's")
    func aTimedActionIsAnOperationThatBecomesReady() async {
        let queue = RecordingQueue()
        let (subject, recorder) = reports()
        defer { recorder.cancel() }
        let due = queue.now.advanced(by: .milliseconds(50))
        queue.schedule(after: due) { subject.send(Ran(id: 1, thread: 0)) }
        let added = queue.added.withLock { $0 }
        #expect(added.count == 1)
        let operation = added[0]
        #expect(!(operation is BlockOperation) && operation is any Cancellable)
        #expect(!operation.isAsynchronous && !operation.isCancelled && !operation.isFinished)
        #expect(!operation.isReady || Date() >= due.date, "ready only once its date has passed")
        await recorder.waitForValues(count: 1)
        #expect(Date() >= due.date)
        operation.main()   // a second run does nothing: the action is gone
        queue.schedule { subject.send(Ran(id: 2, thread: 0)) }
        await recorder.wait { $0.contains(.value(Ran(id: 2, thread: 0))) }
        #expect(recorder.values.map(\.id) == [1, 2])
    }

    @Test("a repeating action adds the operation of each next run once the run before has returned; cancelling stops them and lets the waiting one go")
    func aRepeatingActionAddsOneOperationPerRun() async {
        let queue = RecordingQueue()
        // The recorded operations of a repeating action hold it, and it holds the queue.
        defer { queue.added.withLock { $0 = [] } }
        let (subject, recorder) = reports()
        defer { recorder.cancel() }
        // Three runs, the third cancelling from inside itself: no fourth operation is added.
        let runs = Locked(0)
        let cancellable = Locked<AnyCancellable?>(nil)
        cancellable.withLock { held in
            held = queue.schedule(after: queue.now, interval: .milliseconds(1), tolerance: .zero, options: nil) {
                let run = runs.withLock { runs in
                    runs += 1
                    return runs
                }
                subject.send(Ran(id: run, thread: 0))
                if run == 3 { cancellable.withLock { $0 }?.cancel() }
            } as? AnyCancellable
        }
        await recorder.waitForValues(count: 3)
        queue.schedule(after: queue.now.advanced(by: .milliseconds(20))) { subject.send(Ran(id: 0, thread: 0)) }
        await recorder.wait { $0.contains(.value(Ran(id: 0, thread: 0))) }
        #expect(recorder.values.map(\.id) == [1, 2, 3, 0], "no run after the cancel")
        #expect(queue.added.withLock { $0.count } == 4, "one operation per run, then the marker's")

        // Cancelled while the next run's operation waits (half a second): it is let go at once.
        let waiting = RecordingQueue()
        defer { waiting.added.withLock { $0 = [] } }
        let later = waiting.schedule(after: waiting.now, interval: .milliseconds(500), tolerance: .zero, options: nil) {
            subject.send(Ran(id: 5, thread: 0))
        }
        await waiting.waitForAdditions(2)
        later.cancel()
        // The operation that was waiting (or running) at the cancel is cancelled, however many
        // runs a slow machine let through first; one added just then is handed over after.
        await waiting.waitUntil { $0.contains(where: \.isCancelled) }
        let cancelled = waiting.added.withLock { $0.filter(\.isCancelled) }
        #expect(cancelled.count == 1 && cancelled.allSatisfy(\.isReady), "cancelled, and ready for the queue to let go")
    }

    @Test func aRepeatingActionRunsUntilCancelledAndNeverOverlapsItself() async {
        let queue = OperationQueue()  // concurrent: the scheduler keeps the runs apart
        let (subject, recorder) = reports()
        defer { recorder.cancel() }
        let interval = OperationQueue.SchedulerTimeType.Stride.milliseconds(2)
        let runs = Locked((running: 0, most: 0, count: 0))
        let firstRunGate = DispatchSemaphore(value: 0)
        let repeating = queue.schedule(after: queue.now, interval: interval, tolerance: .zero, options: nil) {
            let first = runs.withLock { runs -> Bool in
                runs.running += 1
                runs.most = Swift.max(runs.most, runs.running)
                runs.count += 1
                return runs.count == 1
            }
            // The first run holds on while the timer ticks ten times more (or, should the
            // signalling thread be starved on a loaded machine, for 200 ms: as many ticks).
            if first { _ = firstRunGate.wait(timeout: .now() + .milliseconds(200)) }
            runs.withLock { $0.running -= 1 }
            subject.send(Ran(id: 0, thread: 0))
        }
        OperationQueue().schedule(after: queue.now.advanced(by: interval * 10)) { firstRunGate.signal() }
        await recorder.waitForValues(count: 5)
        repeating.cancel()
        let count = recorder.valueCount
        // A marker scheduled well after the cancel: by then, at most the one run that was in
        // flight when the cancel came has reported.
        queue.schedule(after: queue.now.advanced(by: interval * 10)) { subject.send(Ran(id: 1, thread: 0)) }
        await recorder.wait { $0.contains(.value(Ran(id: 1, thread: 0))) }
        #expect(recorder.valueCount <= count + 2)
        #expect(runs.withLock { $0.most } == 1)
    }

    @Test func receiveOnASerialQueueKeepsTheOrderAndTheCompletionLast() async {
        let queue = serialQueue()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(10), demandPerValue: .max(1))
        defer { recorder.cancel() }
        (1...100).publisher.receive(on: queue).subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == Array(1...100))
        #expect(recorder.violations.isEmpty)
    }

    @Test func itsClockIsTheWallClockInATimeTypeOfItsOwnAsInCombine() {
        let queue = OperationQueue()
        let before = Date()
        #expect(queue.now.date >= before && queue.now.date <= Date())
        #expect(queue.minimumTolerance == .zero)
        #expect(OperationQueue.SchedulerTimeType.self != RunLoop.SchedulerTimeType.self)
    }
}
