import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in TestClock.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite(.timeLimit(.minutes(12))) struct TestClockExamples {
    /// What the scheduled actions record, awaitable by the test.
    struct Log: Sendable {
        let continuation: AsyncStream<String>.Continuation
        func record(_ entry: String) { continuation.yield(entry) }
    }

    @Test func theActionRunsOnlyWhenTheClockReachesItsDate() async {
        let (entries, continuation) = AsyncStream<String>.makeStream()
        let log = Log(continuation: continuation)
        // snippet TestClockScheduler begin
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.record("fired") }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(999))   // nothing yet
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))     // the action joins the scheduler's queue
        #expect(clock.sleeperCount == 0)
        // snippet TestClockScheduler end
        for await entry in entries {
            #expect(entry == "fired")
            break
        }
    }
}
