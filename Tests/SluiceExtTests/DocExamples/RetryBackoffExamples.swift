import Sluice
import SluiceExt
import SluiceTesting
import Testing

// The doc comments' examples in RetryBackoff.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct RetryBackoffExamples {
    @Test("the documented back-off")
    func documented() {
        // snippet RetryBackoffExponential begin
        // Waits 1 s, 2 s, 4 s, 8 s, then 10 s (the cap) between attempts, each less up to 25 %.
        let backoff = RetryBackoff.exponential(initial: .seconds(1), maximum: .seconds(10), jitter: 0.25)
        #expect(backoff.delay(after: 3, random: 0) == .seconds(4))
        #expect(backoff.delay(after: 3, random: 1) == .seconds(3))
        #expect(backoff.delay(after: 9, random: 0) == .seconds(10))
        // snippet RetryBackoffExponential end
    }

    @Test("each retry waits its delay on the scheduler; the failure after the last retry fails the stream")
    func waitsOnScheduler() {
        // snippet RetryWithBackoff begin
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Oops>()
        flaky.retry(2, backoff: .exponential(initial: .seconds(1)), scheduler: scheduler).subscribe(recorder)
        #expect(flaky.subscriptionCount == 1)   // failed at once
        scheduler.advance(by: .seconds(1))
        #expect(flaky.subscriptionCount == 2)   // failed again: the next wait is 2 s
        scheduler.advance(by: .seconds(2))
        #expect(flaky.subscriptionCount == 3)
        #expect(recorder.completion == .failure(Oops()))   // no retry left
        // snippet RetryWithBackoff end
    }

    let flaky = Flaky()
}
