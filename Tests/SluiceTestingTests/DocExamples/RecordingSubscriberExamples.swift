import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in RecordingSubscriber.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@Suite struct RecordingSubscriberExamples {
    @Test func theTestControlsTheDemand() {
        // snippet RecordingSubscriberDemand begin
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.subscribe(recorder)
        #expect(recorder.values == [1, 2])
        recorder.request(.max(3))
        #expect(recorder.values == [1, 2, 3, 4, 5])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
        // snippet RecordingSubscriberDemand end
    }

    @Test func eachValueUsesUpOneUnitOfDemand() {
        // snippet RecordingSubscriberOutstandingDemand begin
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        Just(1).subscribe(recorder)
        #expect(recorder.outstandingDemand == .max(1))
        // snippet RecordingSubscriberOutstandingDemand end
    }

    @Test func aCancelInsideReceiveEndsTheValues() {
        let recorder = RecordingSubscriber<Int, Never>()
        // snippet RecordingSubscriberCancelInsideValue begin
        recorder.onValue { _ in recorder.cancel(); return .none }
        // snippet RecordingSubscriberCancelInsideValue end
        (1...5).publisher.subscribe(recorder)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
        #expect(recorder.violations.isEmpty)
    }
}
