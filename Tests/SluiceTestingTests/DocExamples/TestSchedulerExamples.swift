import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in TestScheduler.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct TestSchedulerExamples {
    @Test func theDebouncedValueComesExactlyWhenTheClockReachesItsDueTime() {
        // snippet TestSchedulerDebounce begin
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .milliseconds(999))  // nothing yet
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))    // recorder.values == [1]
        // snippet TestSchedulerDebounce end
        #expect(recorder.values == [1])
        recorder.cancel()
    }
}
