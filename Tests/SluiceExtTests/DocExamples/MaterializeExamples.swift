import Sluice
import SluiceExt
import SluiceTesting
import Testing

// The doc comments' examples in Dematerialize.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct MaterializeExamples {
    @Test func materializeRoundTrip() {
        // snippet MaterializeRoundTrip begin
        struct Oops: Error, Equatable {}
        let events = [1, 2].publisher.setFailureType(to: Oops.self)
            .append(Fail(error: Oops()))
            .materialize()             // .value(1), .value(2), .failure(Oops()), then finished
        let recorder = RecordingSubscriber<Int, Oops>()
        events.dematerialize().subscribe(recorder)
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == .failure(Oops()))
        // snippet MaterializeRoundTrip end
    }
}
