import Sluice
import SluiceTesting
import Testing

// The examples in the doc comments of Publishers/Record/Record.swift, compiled and run.

@Suite struct RecordExamples {
    @Test func replaysPerDemandAndFinishesAfterTheLastValue() {
        // snippet RecordReplaysPerDemand begin
        let record = Record<Int, Never> { recording in
            recording.receive(1)
            recording.receive(2)
            recording.receive(completion: .finished)
        }
        let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .max(1))   // from SluiceTesting
        record.subscribe(subscriber)    // values == [1], no completion yet
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))     // values == [1, 2], then .finished without more demand
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
        // snippet RecordReplaysPerDemand end
    }
}
