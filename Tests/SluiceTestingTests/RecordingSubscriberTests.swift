import Sluice
import SluiceTesting
import Testing

@Suite struct RecordingSubscriberTests {
    @Test func recordsSignalsInOrder() {
        let recorder = RecordingSubscriber<Int, Never>()
        recorder.receive(subscription: Subscriptions.empty)
        _ = recorder.receive(1)
        recorder.receive(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func flagsAValueBeyondDemand() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        recorder.receive(subscription: Subscriptions.empty)
        _ = recorder.receive(1)
        _ = recorder.receive(2)
        #expect(recorder.violations == ["received a value beyond demand (rule 2)"])
    }
}
