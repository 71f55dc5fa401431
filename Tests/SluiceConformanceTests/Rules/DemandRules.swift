import Sluice
import SluiceTesting
import Testing

/// DESIGN rule 2 and Reactive Streams 1.1 (never more than demanded, counting the demand
/// returned from `receive(_:)`), 3.8 (demand adds up) and 3.17 (it saturates at unlimited).
/// The recorder records any value beyond its demand as a violation, so each test ends by
/// draining the entry to its completion: then no value can still be on its way.
@Suite("Rule 2: demand", .timeLimit(.minutes(1)))
struct DemandRules {
    @Test("Requesting one at a time delivers one value per request (rule 1.1)", arguments: Registry.completing)
    func oneValuePerRequestedOne(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .none)
        for delivered in 0..<entry.elements {
            source.request(.max(1), through: recorder)
            await entry.awaitValues(delivered + 1, of: recorder)
            #expect(recorder.values == Array(0...delivered))
        }
        // The completion may wait for one more request (a sequence finds its end by looking).
        source.request(.max(1), through: recorder)
        #expect(await entry.awaitCompletion(of: recorder) == entry.expectedCompletion)
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.violations.isEmpty)
    }

    @Test("Demand returned from receive(_:) is honoured as a request (rule 2)",
          arguments: Registry.completing(withAtLeast: 1))
    func demandReturnedFromReceiveCounts(entry: Entry) async {
        let (_, recorder) = entry.subscribe(initialDemand: .max(1), demandPerValue: .max(1))
        #expect(await entry.awaitCompletion(of: recorder) == entry.expectedCompletion)
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.violations.isEmpty)
    }

    @Test("Returning .none from receive(_:) stops delivery at the demand requested (rule 1.1)",
          arguments: Registry.completing(withAtLeast: 3))
    func noMoreThanRequested(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .max(2))
        await entry.awaitValues(2, of: recorder)
        if entry.isSynchronous { #expect(recorder.values == [0, 1]) }
        #expect(recorder.completion == nil)
        source.request(.unlimited, through: recorder)
        await entry.awaitCompletion(of: recorder)
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.violations.isEmpty, "no value came beyond the demand of 2 before the next request")
    }

    @Test("Demand adds up across several requests (rule 3.8)", arguments: Registry.completing(withAtLeast: 3))
    func demandAddsUp(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .none)
        source.request(.max(1), through: recorder)
        source.request(.max(2), through: recorder)
        await entry.awaitValues(3, of: recorder)
        #expect(Array(recorder.values.prefix(3)) == [0, 1, 2])
        source.request(.unlimited, through: recorder)
        await entry.awaitCompletion(of: recorder)
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.violations.isEmpty)
    }

    @Test("Requesting .max(Int.max) twice saturates to unlimited (rule 3.17)", arguments: Registry.completing)
    func demandSaturates(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .max(Int.max))
        source.request(.max(Int.max), through: recorder)
        #expect(await entry.awaitCompletion(of: recorder) == entry.expectedCompletion)
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.violations.isEmpty)
    }
}
