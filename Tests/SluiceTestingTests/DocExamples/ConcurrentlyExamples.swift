import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in Concurrently.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite(.timeLimit(.minutes(12))) struct ConcurrentlyExamples {
    @Test func everyThreadMakesItsCallAndTheRecorderSeesNoBreach() {
        let publisher = ControllablePublisher<Int, Never>()
        defer { publisher.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        publisher.subscribe(recorder)
        // snippet RunConcurrentlyRace begin
        runConcurrently { thread in
            if thread.isMultiple(of: 2) { recorder.cancel() } else { recorder.request(.max(1)) }
        }
        // snippet RunConcurrentlyRace end
        let subscription = publisher.subscriptions[0]
        #expect(subscription.cancelCount == (defaultRacingThreads + 1) / 2)
        #expect(subscription.requests.count == defaultRacingThreads / 2)
        #expect(recorder.violations.isEmpty)
    }
}
