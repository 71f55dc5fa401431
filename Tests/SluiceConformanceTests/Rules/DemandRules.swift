import Sluice
import SluiceTesting
import Testing

/// DESIGN rule 2 and Reactive Streams 1.1 (never more than demanded, counting the demand
/// returned from `receive(_:)`), 3.8 (demand adds up) and 3.17 (it saturates at unlimited).
/// The recorder records any value beyond its demand as a violation, so each test ends by
/// draining the entry to its completion: then no value can still be on its way.
@Suite("Rule 2: demand", .timeLimit(.minutes(12)))
struct DemandRules {
    @Test("Requesting one at a time delivers one value per request (rule 1.1)", arguments: Registry.completing)
    func oneValuePerRequestedOne(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .none)
        for delivered in 0..<entry.elements {
            source.request(.max(1), through: recorder)
            await entry.awaitValues(delivered + 1, of: recorder)
            #expect(recorder.values == entry.expectedPrefix(delivered + 1))
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
        if entry.isSynchronous {
            #expect(recorder.values == entry.expectedPrefix(2))
            #expect(recorder.completion == nil)
            source.request(.unlimited, through: recorder)
            await entry.awaitCompletion(of: recorder)
            #expect(recorder.values == entry.expectedValues)
        } else {
            // A third value could come at any time from the entry's task: the cancel, and the
            // wait until the task let go of the subscriber, leave it no later moment. The
            // recorder flags a value beyond its demand whenever it comes.
            recorder.cancel()
            #expect(await source.settle(recorder), "\(entry.name) never let go of its subscriber")
            #expect(recorder.values == entry.expectedPrefix(2))
            #expect(recorder.completion == nil)
        }
        #expect(recorder.violations.isEmpty, "no value came beyond the demand of 2 before the next request")
    }

    @Test("Demand adds up across several requests (rule 3.8)", arguments: Registry.completing(withAtLeast: 5))
    func demandAddsUp(entry: Entry) async {
        // The second request comes while the first still has demand outstanding (from inside
        // its first value): a subscription that replaced its demand instead of adding to it
        // would stop after 3 values, not 4.
        let recorder = Recorder(initialDemand: .none)
        let requested = Locked(false)
        recorder.onValue { [weak recorder] _ in
            guard !requested.withLock({ done in defer { done = true }; return done }) else { return .none }
            recorder?.request(.max(2))
            return .none
        }
        let source = entry.make()
        source.subscribe(recorder)
        source.request(.max(2), through: recorder)
        await entry.awaitValues(4, of: recorder)
        #expect(Array(recorder.values.prefix(4)) == entry.expectedPrefix(4))
        if entry.isSynchronous { #expect(recorder.values.count == 4) }
        source.request(.unlimited, through: recorder)
        await entry.awaitCompletion(of: recorder)
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.violations.isEmpty)
    }

    @Test("Demand beyond .max(Int.max) saturates to unlimited (rule 3.17)", arguments: Registry.completing)
    func demandSaturates(entry: Entry) async {
        // Demand near the top meets more demand while values flow: `.max(Int.max)`, then a
        // second `.max(Int.max)` from inside the first value. A synchronous entry delivers
        // everything inside the first request, so only a request made from inside a delivery
        // reaches its subscription with demand still outstanding. Demand that overflowed
        // instead of saturating would stop the values.
        let recorder = Recorder(initialDemand: .none)
        let requested = Locked(false)
        recorder.onValue { [weak recorder] _ in
            guard !requested.withLock({ done in defer { done = true }; return done }) else { return .none }
            recorder?.request(.max(Int.max))
            return .none
        }
        let source = entry.make()
        source.subscribe(recorder)
        source.request(.max(Int.max), through: recorder)
        #expect(await entry.awaitCompletion(of: recorder) == entry.expectedCompletion)
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.violations.isEmpty)
    }
}
