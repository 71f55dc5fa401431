import Dispatch
import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in CollectByTime.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct CollectByTimeExamples {
    @Test func aFullBatchGoesAtOnceAndTheRestAtTheEndOfTheSecond() {
        let lines = PassthroughSubject<String, Never>()
        let queue = DispatchQueue.test
        // snippet CollectByTimeOrCount begin
        // Batches of at most 100 log lines, at least every second.
        let batches = lines.collect(.byTimeOrCount(queue, .seconds(1), 100))
        // snippet CollectByTimeOrCount end
        let recorder = RecordingSubscriber<[String], Never>()
        defer { recorder.cancel() }
        batches.subscribe(recorder)
        for number in 1...101 { lines.send("line \(number)") }
        queue.advance()
        #expect(recorder.values.map(\.count) == [100])
        queue.advance(by: .milliseconds(999))
        #expect(recorder.values.count == 1)
        queue.advance(by: .milliseconds(1))
        #expect(recorder.values.last == ["line 101"])
    }
}
