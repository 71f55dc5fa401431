import Sluice
import SluiceTesting
import Testing

/// DESIGN rule 4 and Reactive Streams 3.13: after a cancel, and after a completion, the
/// publisher keeps no reference to the subscriber. The recorder keeps its subscription, so a
/// subscription that kept the recorder would make a cycle and the `weak` reference would stay.
/// Asynchronous entries release it when their task ends: the check waits for that, yielding.
@Suite("Rule 4: references dropped", .timeLimit(.minutes(12)))
struct ReferenceRules {
    @Test("A cancelled subscription lets its subscriber go (rule 3.13)", arguments: Registry.everyPublisher)
    func cancelReleasesTheSubscriber(entry: Entry) async {
        let source = entry.make()
        weak var weakRecorder: Recorder?
        do {
            let (_, recorder) = entry.subscribe(initialDemand: .max(1), source: source)
            weakRecorder = recorder
            if entry.elements > 0 && entry.declaresValues { await entry.awaitValues(1, of: recorder) }
            recorder.cancel()
        }
        #expect(await eventually { weakRecorder == nil }, "\(entry.name) still holds its subscriber")
        withExtendedLifetime(source) {}
    }

    @Test("A completed subscription lets its subscriber go (rule 3.13)",
          arguments: Registry.everyPublisher.filter { $0.ending != .never })
    func completionReleasesTheSubscriber(entry: Entry) async {
        let source = entry.make()
        weak var weakRecorder: Recorder?
        do {
            let (_, recorder) = entry.subscribe(initialDemand: .unlimited, source: source)
            weakRecorder = recorder
            await entry.awaitCompletion(of: recorder)
        }
        #expect(await eventually { weakRecorder == nil }, "\(entry.name) still holds its subscriber")
        withExtendedLifetime(source) {}
    }

    @Test("A cancel before any demand lets the subscriber go (rule 3.13)", arguments: Registry.everyPublisher)
    func cancelBeforeDemandReleasesTheSubscriber(entry: Entry) async {
        let source = entry.make()
        weak var weakRecorder: Recorder?
        do {
            let (_, recorder) = entry.subscribe(initialDemand: .none, source: source)
            weakRecorder = recorder
            recorder.cancel()
        }
        #expect(await eventually { weakRecorder == nil }, "\(entry.name) still holds its subscriber")
        withExtendedLifetime(source) {}
    }

    @Test("A cancel from inside receive(_:) ends delivery and lets the subscriber go (rules 3.2, 3.13)",
          arguments: Registry.all.filter { $0.elements >= 1 })
    func reentrantCancelReleasesTheSubscriber(entry: Entry) async {
        let source = entry.make()
        weak var weakRecorder: Recorder?
        do {
            let (_, recorder) = entry.subscribe(initialDemand: .none, source: source)
            weakRecorder = recorder
            recorder.onValue { [weak recorder] _ in
                recorder?.cancel()
                return .none
            }
            source.request(.unlimited, through: recorder)
            await entry.awaitValues(1, of: recorder)
            #expect(await source.settle(recorder), "\(entry.name) never let go of its subscriber")
            #expect(recorder.values == entry.expectedPrefix(1))
            // Combine's single-value publishers send the value and `.finished` as one emission
            // (`completesWithItsValue`); every other entry stops.
            #expect(recorder.completion == nil || entry.completesWithItsValue)
            let allowed = "received a completion after its cancel returned (rule 4)"
            #expect(recorder.violations.filter { !entry.completesWithItsValue || $0 != allowed }.isEmpty)
        }
        #expect(await eventually { weakRecorder == nil }, "\(entry.name) still holds its subscriber")
        withExtendedLifetime(source) {}
    }
}
