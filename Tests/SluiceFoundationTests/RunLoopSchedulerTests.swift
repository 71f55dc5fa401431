import Foundation
import Sluice
import SluiceFoundation
import SluiceTesting
import Testing

/// What a scheduled action reports: which action, and the thread it ran on.
struct Ran: Equatable, Sendable {
    var id: Int
    var thread: UInt
}

/// A subject the scheduled actions report to, and a recorder of the reports.
func reports() -> (PassthroughSubject<Ran, Never>, RecordingSubscriber<Ran, Never>) {
    let subject = PassthroughSubject<Ran, Never>()
    let recorder = RecordingSubscriber<Ran, Never>()
    subject.subscribe(recorder)
    return (subject, recorder)
}

@Suite(.timeLimit(.minutes(12)))
struct RunLoopSchedulerTests {
    @Test func actionsRunOnTheRunLoopsThreadInTheOrderScheduled() async {
        let (thread, runLoop) = await RunLoopThread.start()
        defer { thread.stop() }
        let (subject, recorder) = reports()
        defer { recorder.cancel() }
        for id in 1...20 { runLoop.schedule { subject.send(Ran(id: id, thread: currentThreadIdentity())) } }
        await recorder.waitForValues(count: 20)
        #expect(recorder.values.map(\.id) == Array(1...20))
        #expect(recorder.values.allSatisfy { $0.thread == thread.threadIdentity })
    }

    @Test func anActionScheduledAfterADateRunsNoSooner() async {
        let (thread, runLoop) = await RunLoopThread.start()
        defer { thread.stop() }
        let ran = RecordingSubscriber<Date, Never>()
        defer { ran.cancel() }
        let subject = PassthroughSubject<Date, Never>()
        subject.subscribe(ran)
        let due = runLoop.now.advanced(by: .milliseconds(20))
        runLoop.schedule(after: due) { subject.send(Date()) }
        runLoop.schedule(after: runLoop.now.advanced(by: -1), tolerance: .zero, options: nil) { subject.send(.distantPast) }
        await ran.waitForValues(count: 2)
        #expect(ran.values[0] == .distantPast)
        #expect(ran.values[1] >= due.date)
    }

    @Test func aRepeatingActionRunsUntilCancelled() async {
        let (thread, runLoop) = await RunLoopThread.start()
        defer { thread.stop() }
        let (subject, recorder) = reports()
        defer { recorder.cancel() }
        let interval = RunLoop.SchedulerTimeType.Stride.milliseconds(5)
        let repeating = runLoop.schedule(after: runLoop.now, interval: interval) {
            subject.send(Ran(id: 0, thread: currentThreadIdentity()))
        }
        await recorder.waitForValues(count: 3)
        repeating.cancel()
        // Markers scheduled after the cancel run after any run in flight (one thread); between
        // them, several intervals pass with no run.
        runLoop.schedule { subject.send(Ran(id: 1, thread: 0)) }
        await recorder.wait { $0.contains(.value(Ran(id: 1, thread: 0))) }
        runLoop.schedule(after: runLoop.now.advanced(by: interval * 5)) { subject.send(Ran(id: 2, thread: 0)) }
        await recorder.wait { $0.contains(.value(Ran(id: 2, thread: 0))) }
        let ids = recorder.values.map(\.id)
        #expect(ids.suffix(2) == [1, 2])
        #expect(ids.dropLast(2).allSatisfy { $0 == 0 })
        #expect(recorder.values.dropLast(2).allSatisfy { $0.thread == thread.threadIdentity })
    }

    @Test func receiveOnDeliversEverySignalOnTheRunLoopInOrder() async {
        let (thread, runLoop) = await RunLoopThread.start()
        defer { thread.stop() }
        let recorder = RecordingSubscriber<UInt, Never>()
        defer { recorder.cancel() }
        (1...50).publisher.map { _ in currentThreadIdentity() }.receive(on: runLoop).subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.valueCount == 50)
        #expect(recorder.values.allSatisfy { $0 != thread.threadIdentity })
        let onLoop = RecordingSubscriber<UInt, Never>()
        defer { onLoop.cancel() }
        let upstream = ControllablePublisher<Int, Never>()
        upstream.receive(on: runLoop).map { _ in currentThreadIdentity() }.subscribe(onLoop)
        // The subscription may reach the subscriber on the run loop: send once its demand is up.
        guard let subscription = await upstream.firstSubscription() else { return }
        await subscription.waitForCalls { $0.contains(.request(.unlimited)) }
        for value in 1...10 { _ = subscription.send(value) }
        await onLoop.waitForValues(count: 10)
        #expect(onLoop.values.allSatisfy { $0 == thread.threadIdentity })
        #expect(onLoop.violations.isEmpty)
    }

    @Test func itsClockIsTheWallClock() {
        let before = Date()
        let now = RunLoop.main.now
        #expect(now.date >= before && now.date <= Date())
        #expect(RunLoop.main.minimumTolerance == .zero)
    }
}
