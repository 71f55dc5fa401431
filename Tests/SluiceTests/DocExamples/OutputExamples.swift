import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in Output.swift, compiled and run; `.ci/check-snippets.sh` checks
// that each comment shows exactly the lines between the snippet's markers.

@Suite struct OutputExamples {
    @Test func prefixEndsAnEndlessSequence() {
        // snippet OutputPrefixOfEndless begin
        let firstThree = (1...).publisher.prefix(3)   // 1, 2, 3, then finished: demand stops the endless sequence
        // snippet OutputPrefixOfEndless end
        let recorder = RecordingSubscriber<Int, Never>()
        firstThree.subscribe(recorder)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completion == .finished)
    }
}
