import Sluice
import SluiceTesting
import Testing

/// DESIGN rule 4 and Reactive Streams 3.5-3.7 (cancel is idempotent and thread-safe; a request
/// after it is a no-op) and 3.12 (signals stop after a cancel).
///
/// An asynchronous entry delivers from its own task, after `request(_:)` returned: each check
/// awaits ``Source/settle(_:)`` first (the publisher let go of the subscriber, so its task is
/// over), or a value arriving late would go unseen.
@Suite("Rule 4: cancellation", .timeLimit(.minutes(12)))
struct CancellationRules {
    @Test("Cancelling twice or more is harmless, and a request after it delivers nothing (rules 3.5-3.7)",
          arguments: Registry.everyPublisher)
    func cancelIsIdempotentAndRequestAfterItIsANoOp(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .none)
        // A publisher may complete without demand (`Empty`, a failed `Future`) before the cancel.
        let completedBeforeCancel = recorder.completion
        recorder.cancel()
        recorder.cancel()
        recorder.cancel()
        source.request(.max(1), through: recorder)
        source.request(.unlimited, through: recorder)
        #expect(await source.settle(recorder), "\(entry.name) never let go of its subscriber")
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == completedBeforeCancel, "a cancel delivers no completion (rule 3.12)")
        #expect(recorder.violations.isEmpty)
    }

    @Test("Cancel racing with requests from many threads is safe (rule 3.5)", arguments: Registry.all)
    func cancelFromManyThreadsAtOnce(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .none)
        let box = Unchecked(source)
        runConcurrently { thread in
            if thread.isMultiple(of: 2) {
                recorder.cancel()
            } else {
                box.value.request(.max(1), through: recorder)
            }
        }
        recorder.cancel()
        #expect(await source.settle(recorder), "\(entry.name) never let go of its subscriber")
        let values = recorder.values
        #expect(values == Array(entry.expectedValues.prefix(values.count)) && values.count <= entry.elements, "\(values)")
        if let completion = recorder.completion {
            // Only when every value and the completion went out before a cancel.
            #expect(completion == entry.expectedCompletion && values == entry.expectedValues,
                    "\(completion) after \(values)")
        }
        #expect(recorder.violations.isEmpty)
    }

    @Test("After a cancel, values stop and no completion comes (rule 3.12)",
          arguments: Registry.all.filter { $0.elements >= 2 })
    func signalsStopAfterCancel(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .max(1))
        await entry.awaitValues(1, of: recorder)
        recorder.cancel()
        source.request(.unlimited, through: recorder)
        #expect(await source.settle(recorder), "\(entry.name) never let go of its subscriber")
        #expect(recorder.values == entry.expectedPrefix(1))
        #expect(recorder.completion == nil)
        #expect(recorder.violations.isEmpty)
    }
}
