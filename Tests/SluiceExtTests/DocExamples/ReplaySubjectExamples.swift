import Sluice
import SluiceExt
import SluiceTesting
import Testing

// The doc comments' examples in ReplaySubject.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct ReplaySubjectExamples {
    @Test func replaySubjectLateSubscriber() {
        // snippet ReplaySubjectLateSubscriber begin
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        let late = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(late)          // values == [2]: the kept values, within demand
        late.request(.max(2))
        subject.send(4)                  // values == [2, 3, 4]
        // snippet ReplaySubjectLateSubscriber end
        #expect(late.values == [2, 3, 4])
        late.cancel()
    }

    @Test func shareReplaySynchronous() {
        // snippet ShareReplaySynchronous begin
        let shared = [1, 2, 3].publisher.share(replay: 2)
        let first = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)          // connects: 1, 2, 3, finished
        let late = RecordingSubscriber<Int, Never>()
        shared.subscribe(late)           // 2, 3, finished
        #expect(late.values == [2, 3])
        #expect(late.completion == .finished)
        // snippet ShareReplaySynchronous end
        #expect(first.values == [1, 2, 3])
    }
}
