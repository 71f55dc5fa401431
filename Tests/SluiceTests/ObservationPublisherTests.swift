import Observation
import Testing
import Sluice
import SluiceTesting

@MainActor @Observable
private final class Counter {
    var count = 0
    var label = "a"
}

/// Code moving from `ObservableObject` to `@Observable` keeps its pipelines: `$model.count`
/// becomes `Observations { model.count }.publisher` (the Observation framework's sequence of
/// changes, through the bridge), which sends the current value, then the value after each
/// change (one per transaction), on demand.
@Suite("An @Observable property's changes as a publisher")
struct ObservationPublisherTests {
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @MainActor @Test(.timeLimit(.minutes(12)))
    func observationsAsPublisher() async {
        let model = Counter()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        Observations { model.count }.publisher.subscribe(recorder)
        await recorder.waitForValues(count: 1)
        #expect(recorder.values == [0])
        model.count = 1
        model.label = "b"  // not observed: no value
        recorder.request(.max(1))
        await recorder.waitForValues(count: 2)
        #expect(recorder.values == [0, 1])
        recorder.cancel()
    }
}
