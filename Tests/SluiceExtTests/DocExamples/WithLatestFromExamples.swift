import Sluice
import SluiceExt
import SluiceTesting
import Testing

// The doc comments' examples in WithLatestFrom.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct WithLatestFromExamples {
    @Test func withLatestFromSelector() {
        // snippet WithLatestFromSelector begin
        let taps = PassthroughSubject<Void, Never>()
        let text = PassthroughSubject<String, Never>()
        var sent: [String] = []
        let cancellable = taps.withLatestFrom(text) { _, text in text }.sink { sent.append($0) }
        taps.send()          // dropped: no text yet
        text.send("hello")
        taps.send()          // sent == ["hello"]
        // snippet WithLatestFromSelector end
        #expect(sent == ["hello"])
        cancellable.cancel()
    }
}
