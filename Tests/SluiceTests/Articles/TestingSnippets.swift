import Sluice
import SluiceTesting
import Testing

/// The examples of SluiceTesting's Testing.md, compiled and run; `.ci/check-snippets.sh`
/// checks that the article shows exactly the lines between each snippet's markers. (The
/// loopback server's example needs SluiceFoundation: it is in SluiceFoundationTests.)
@Suite(.timeLimit(.minutes(12))) struct TestingSnippets {
    @Test func recordingSubscriber() {
        // snippet TestingRecorder begin
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.map { $0 * 10 }.subscribe(recorder)
        #expect(recorder.values == [10, 20])
        #expect(recorder.outstandingDemand == .none)
        recorder.request(.max(3))
        #expect(recorder.values == [10, 20, 30, 40, 50])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
        // snippet TestingRecorder end
    }

    @Test func controllablePublisher() {
        // snippet TestingControllable begin
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.filter { $0.isMultiple(of: 2) }.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.max(1)])
        #expect(subscription.send(1) == .max(1))   // dropped by filter, which asks for one more
        #expect(subscription.send(2) == .none)     // delivered; the recorder asks for nothing
        #expect(recorder.values == [2])
        recorder.cancel()
        #expect(subscription.cancelCount == 1)
        // snippet TestingControllable end
    }

    @Test func virtualTime() {
        // snippet TestingVirtualTime begin
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2].publisher.receive(on: scheduler).subscribe(recorder)
        #expect(recorder.events == [.subscription])   // the values wait for the scheduler
        scheduler.advance()
        #expect(recorder.values == [1, 2])

        let ticks = PassthroughSubject<Int, Never>()
        let ticked = RecordingSubscriber<Int, Never>()
        ticks.subscribe(ticked)
        let timer = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
            ticks.send(1)
        }
        scheduler.advance(by: .milliseconds(2_500))
        #expect(ticked.values.count == 2)        // at 1 s and 2 s
        timer.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(ticked.values.count == 2)
        // snippet TestingVirtualTime end
        ticked.cancel()  // the subject and the recorder keep each other until then
    }

    @Test func immediateTestScheduler() {
        // snippet TestingImmediate begin
        let scheduler = ImmediateTestScheduler()
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2].publisher.receive(on: scheduler).subscribe(recorder)
        #expect(recorder.values == [1, 2])      // no advance needed
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {}
        #expect(scheduler.now == .init(nanoseconds: 5_000_000_000))   // runs at once, clock moved
        // snippet TestingImmediate end
    }

    @Test func testClock() async {
        // snippet TestingTestClock begin
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock)
        let subject = PassthroughSubject<String, Never>()
        let recorder = RecordingSubscriber<String, Never>()
        subject.subscribe(recorder)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { subject.send("fired") }
        await clock.waitForSleepers(1)           // the action's task sleeps on the clock
        clock.advance(by: .milliseconds(999))
        #expect(recorder.values.isEmpty)
        clock.advance(by: .milliseconds(1))
        await recorder.waitForValues(count: 1)   // no sleep: wait for the value itself
        #expect(recorder.values == ["fired"])
        // snippet TestingTestClock end
        recorder.cancel()  // the subject and the recorder keep each other until then
    }

    @Test func racingThreads() {
        // snippet TestingRunConcurrently begin
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        runConcurrently(threads: 8) { thread in
            if thread == 0 {
                recorder.cancel()
            } else {
                recorder.request(.max(1))
                subject.send(thread)
            }
        }
        #expect(recorder.violations.isEmpty)     // no value beyond demand, none after the cancel
        // snippet TestingRunConcurrently end
    }
}
