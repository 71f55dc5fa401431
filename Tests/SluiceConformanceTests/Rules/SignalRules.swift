import Sluice
import SluiceTesting
import Testing

/// DESIGN rules 3 and 4, Reactive Streams 1.3 (signals are serial, also when requests or sends
/// come from many threads; the recorder records any overlap) and 1.5/1.7 (a completion after
/// the values; nothing after it).
@Suite("Rules 3-4: serial signals, completion", .timeLimit(.minutes(12)))
struct SignalRules {
    @Test("All values, then the completion, then nothing (rules 1.5, 1.7)", arguments: Registry.completing)
    func completesAfterAllValuesAndNothingFollows(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .unlimited)
        #expect(await entry.awaitCompletion(of: recorder) == entry.expectedCompletion)
        #expect(recorder.values == entry.expectedValues)
        let events = recorder.events.count
        source.request(.max(1), through: recorder)
        recorder.cancel()
        #expect(recorder.events.count == events, "a request or cancel after the completion delivers nothing")
        #expect(recorder.violations.isEmpty)
    }

    @Test("A never-ending publisher delivers its values and stays open until cancelled",
          arguments: Registry.neverEnding)
    func neverEndingStaysOpen(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .unlimited)
        await entry.awaitValues(entry.elements, of: recorder)
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.completion == nil)
        recorder.cancel()
        #expect(await source.settle(recorder), "\(entry.name) never let go of its subscriber")
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.completion == nil, "a cancel delivers no completion (rule 3.12)")
        #expect(recorder.violations.isEmpty)
    }

    @Test("Requests racing from many threads still give serial signals, in order (rule 1.3)",
          arguments: Registry.completing)
    func concurrentRequestsKeepSignalsSerial(entry: Entry) async {
        // A hot entry's pump runs after each request, one thread at a time (`OneAtATime`), so
        // its sends race the other threads' requests.
        let count = entry.scaled == nil ? entry.elements : 2_000
        let source = entry.scaled?(count) ?? entry.make()
        let (_, recorder) = entry.subscribe(initialDemand: .none, source: source)
        let threads = defaultRacingThreads
        let box = Unchecked(source)
        runConcurrently(threads: threads) { _ in
            for _ in 0..<(count / threads + 1) { box.value.request(.max(1), through: recorder) }
        }
        source.request(.unlimited, through: recorder)
        await entry.awaitCompletion(of: recorder)
        let expected = entry.scaled == nil ? entry.expectedValues : Array(0..<count)
        if Registry.racingRequestsReorderUpstreams(entry) {
            // Values that came before their partner are dropped, as Combine drops them: what
            // arrives is in order and ends with the last value, unless the upstream fails: its
            // failure overtakes a last value still waiting for demand, as Combine's does.
            #expect(isOrderedSubsequence(recorder.values, of: expected), "\(recorder.values)")
            if entry.ending != .failure { #expect(recorder.values.last == expected.last, "\(recorder.values)") }
        } else {
            #expect(recorder.values == expected, "lost, repeated or reordered values")
        }
        #expect(recorder.violations.isEmpty)
    }

    @Test("Sends racing from many threads reach the subscriber one at a time, each sender's in order (rule 3)",
          // The test sends its own values and completion, so of each hot operator the entry
          // over a finishing subject is enough (those over a failing or never-ending one are
          // the same operator).
          arguments: Registry.all.filter { $0.delivery == .hot && $0.ending == .finished })
    func concurrentSendsAreSerial(entry: Entry) async throws {
        // The recorder subscribes to the entry's publisher (the operator, when there is one);
        // the threads send into the subject beneath it.
        let source = entry.make()
        let subject = try #require(source.subject)
        let recorder = Recorder(initialDemand: .unlimited)
        // A subscriber that takes its time in `receive(_:)`: a value that came from another
        // sender meanwhile would overlap it, and the recorder would see it.
        recorder.onValue { _ in
            yieldThread()
            return .none
        }
        source.publisher.subscribe(recorder)
        let box = Unchecked(subject)
        let initial = recorder.values.count  // a CurrentValueSubject's current value
        let threads = defaultRacingThreads
        runConcurrently(threads: threads) { thread in
            for value in 0..<500 { box.value.send(thread * 1_000 + value) }
        }
        subject.send(completion: .finished)
        #expect(recorder.violations.isEmpty)
        if entry.forwardsValuesUnchanged {
            // An operator that asks its upstream for less than `.unlimited` (`zip`, a flatMap of
            // one at a time) lets the subject drop what comes without demand: each sender's
            // values that arrive are in the order sent.
            let sent = recorder.values.dropFirst(initial)
            for thread in 0..<threads {
                let fromThread = sent.filter { $0 / 1_000 == thread }
                #expect(isOrderedSubsequence(fromThread, of: Array(thread * 1_000..<thread * 1_000 + 500)),
                        "thread \(thread)'s values")
            }
            #expect(recorder.completion == .finished)
            if (Registry.subjects + Registry.sharing).contains(where: { $0.name == entry.name }) {
                #expect(sent.count == threads * 500, "a subject and a share ask for .unlimited: nothing is dropped")
            }
        }
        recorder.cancel()
    }
}

/// Whether `values` is `whole` with some elements left out, the rest in the same order.
func isOrderedSubsequence(_ values: some Collection<Int>, of whole: [Int]) -> Bool {
    var remaining = whole[...]
    for value in values {
        guard let index = remaining.firstIndex(of: value) else { return false }
        remaining = remaining[(index + 1)...]
    }
    return true
}
