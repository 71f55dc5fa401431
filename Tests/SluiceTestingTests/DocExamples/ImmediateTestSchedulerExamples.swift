import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in ImmediateTestScheduler.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@Suite struct ImmediateTestSchedulerExamples {
    @Test func aDelayPassesAtOnceAndTheClockShowsIt() {
        // snippet ImmediateTestSchedulerDelay begin
        let scheduler = ImmediateTestScheduler()
        let recorder = RecordingSubscriber<Int, Never>()
        Just(1).delay(for: .seconds(5), scheduler: scheduler).subscribe(recorder)
        // recorder.values == [1], then .finished; scheduler.now is 10 seconds after the start:
        // the value's delay passed at once, then the completion's, scheduled after it
        // snippet ImmediateTestSchedulerDelay end
        #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
        #expect(scheduler.now == ImmediateTestScheduler().now.advanced(by: .seconds(10)))
    }
}
