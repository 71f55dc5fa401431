import Sluice
import SluiceTesting
import Testing

/// DESIGN rules 3 and 4, Reactive Streams 1.3 (signals are serial, also when requests or sends
/// come from many threads; the recorder records any overlap) and 1.5/1.7 (a completion after
/// the values; nothing after it).
@Suite("Rules 3-4: serial signals, completion", .timeLimit(.minutes(6)))
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
          arguments: Registry.completing.filter { $0.delivery != .hot && !Registry.racingRequestsReorderUpstreams($0) })
    func concurrentRequestsKeepSignalsSerial(entry: Entry) async {
        // Hot entries are fed by the test's pump on one thread; their race is the next test's.
        let count = entry.scaled == nil ? entry.elements : 2_000
        let source = entry.scaled?(count) ?? entry.make()
        let (_, recorder) = entry.subscribe(initialDemand: .none, source: source)
        let threads = defaultRacingThreads
        runConcurrently(threads: threads) { _ in
            for _ in 0..<(count / threads + 1) { recorder.request(.max(1)) }
        }
        recorder.request(.unlimited)
        await entry.awaitCompletion(of: recorder)
        #expect(recorder.values == (entry.scaled == nil ? entry.expectedValues : Array(0..<count)), "lost, repeated or reordered values")
        #expect(recorder.violations.isEmpty)
    }

    @Test("Sends racing from many threads into a subject reach its subscriber one at a time, each sender's in order (rule 3)",
          arguments: Registry.all.filter { $0.delivery == .hot && $0.ending == .finished })
    func concurrentSendsAreSerial(entry: Entry) async throws {
        let source = entry.make()
        let subject = try #require(source.subject)
        let recorder = Recorder(initialDemand: .unlimited)
        // A subscriber that takes its time in `receive(_:)`: a value that came from another
        // sender meanwhile would overlap it, and the recorder would see it.
        recorder.onValue { _ in
            yieldThread()
            return .none
        }
        subject.subscribe(recorder)
        let box = Unchecked(subject)
        let initial = recorder.values.count  // a CurrentValueSubject's current value
        let threads = defaultRacingThreads
        runConcurrently(threads: threads) { thread in
            for value in 0..<500 { box.value.send(thread * 1_000 + value) }
        }
        subject.send(completion: .finished)
        let sent = recorder.values.dropFirst(initial)
        #expect(sent.count == threads * 500)
        for thread in 0..<threads {
            let fromThread = sent.filter { $0 / 1_000 == thread }
            #expect(fromThread == Array(thread * 1_000..<thread * 1_000 + 500), "thread \(thread)'s values")
        }
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }
}
