// Seeded random schedules of request / cancel over the asynchronous bridge publishers: after
// each request the test awaits the deliveries the model expects, then compares.
import Testing
import Sluice
import SluiceTesting

extension AsyncStressSuites {
    @Suite("RandomSchedule: asynchronous bridge publishers", .timeLimit(.minutes(12)))
    struct AsyncScheduleTests {
        /// Endless sources, so that every demand is eventually met; finite demands only (an
        /// endless source with `.unlimited` demand never lets the test catch up).
        @Test("endless async sequence publisher and Producer: random request / cancel deliver exactly the demanded prefix",
            arguments: ["asyncSequence", "producer"])
        func endlessSources(source: String) async {
            await Self.checkEndlessSources(source: source)
        }

        /// The check of ``endlessSources(source:)``, with `fault` (if any) between the source
        /// and its recorder.
        static func checkEndlessSources(source: String, fault: InjectedFault? = nil) async {
            for seed in ScheduleSeeds.seeds(count: asyncScheduleSeeds) {
                var random = SplitMix64(seed: seed)
                var model = DemandModel<Int>(demandPerValue: .none)
                let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
                let produced = ProducedCounter()
                if source == "asyncSequence" {
                    CountingAsyncSequence(limit: nil, produced: produced).publisher.subscribe(recorder, injecting: fault)
                } else {
                    Producer<Int, Never> { sender in
                        var value = 0
                        while await sender.send(value) { value += 1 }
                    }.subscribe(recorder, injecting: fault)
                }
                var next = 0
                for step in 0..<20 {
                    let operation: String
                    if Int.random(in: 0..<100, using: &random) < 90 {
                        let demand = Subscribers.Demand.max(Int.random(in: 1...3, using: &random))
                        operation = "request(\(demand))"
                        recorder.request(demand)
                        model.request(demand)
                        while model.outstanding > 0, !model.isTerminated {
                            model.deliver(next)
                            next += 1
                        }
                        await recorder.waitForValues(count: model.values.count)
                    } else {
                        operation = "cancel"
                        recorder.cancel()
                        model.cancel()
                    }
                    let difference = mismatch(recorder, model)
                    #expect(difference == nil, "seed \(seed) (SLUICE_SEED=\(seed)), step \(step), \(operation): \(difference ?? "")")
                    if source == "asyncSequence" {
                        #expect(produced.value <= model.values.count + (model.cancelled ? 1 : 0),
                            "seed \(seed) (SLUICE_SEED=\(seed)), step \(step): the sequence was read ahead of demand")
                    }
                    if difference != nil { break }
                }
                recorder.cancel()
            }
        }
            @Test("AsyncFuture: random request / cancel: its value and finished come once there is demand, nothing after a cancel")
        func asyncFuture() async {
            for seed in ScheduleSeeds.seeds(count: asyncScheduleSeeds * 3) {
                var random = SplitMix64(seed: seed)
                var model = DemandModel<Int>(demandPerValue: random.demandPerValue())
                let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none, demandPerValue: model.demandPerValue)
                let calls = ProducedCounter()
                AsyncFuture<Int, Never> {
                    calls.add()
                    return 7
                }.subscribe(recorder)
                for step in 0..<8 {
                    let operation: String
                    if Int.random(in: 0..<100, using: &random) < 75 {
                        let demand = random.demand()
                        operation = "request(\(demand))"
                        recorder.request(demand)
                        model.request(demand)
                        if model.outstanding > 0, !model.isTerminated {
                            model.deliver(7)
                            model.complete()
                            await recorder.waitForCompletion()
                        }
                    } else {
                        // The model and the recorder agree before each step (the test awaited
                        // what the last request caused), so nothing is in flight at the cancel.
                        operation = "cancel"
                        recorder.cancel()
                        model.cancel()
                    }
                    let difference = mismatch(recorder, model)
                    #expect(difference == nil, "seed \(seed) (SLUICE_SEED=\(seed)), step \(step), \(operation): \(difference ?? "")")
                    #expect(calls.value == (model.completed ? 1 : 0) || (model.cancelled && calls.value <= 1),
                        "seed \(seed) (SLUICE_SEED=\(seed)), step \(step): the call ran \(calls.value) times, before demand or twice")
                    if difference != nil { break }
                }
                recorder.cancel()
            }
        }

        @Test("values and its variants over a counting sequence publisher: random next / cancel return exactly the model's elements, reading no further ahead than the variant's demand",
            arguments: ValuesVariant.allCases)
        func values(variant: ValuesVariant) async {
            for seed in ScheduleSeeds.seeds(count: asyncScheduleSeeds * 3) {
                var random = SplitMix64(seed: seed)
                // At most 8: the bounded buffering variants keep 8 (they request .unlimited, and a
                // synchronous sequence fills the buffer at once).
                let count = Int.random(in: 0...8, using: &random)
                let operations = (0..<16).map { _ in Int.random(in: 0..<100, using: &random) < 90 ? "next" : "cancel" }
                let produced = ProducedCounter()
                let publisher = Publishers.Sequence<CountingNumbers, Never>(sequence: CountingNumbers(count: count, produced: produced))
                // The loop runs in a task of its own, so that "cancel" can cancel it.
                let failure = await Task { () -> String? in
                    var model = DemandModel<Int>(demandPerValue: .none)
                    var iterator = variant.apply(publisher).makeAsyncIterator()
                    var next = 0
                    for (step, operation) in operations.enumerated() {
                        if operation == "cancel" {
                            withUnsafeCurrentTask { $0?.cancel() }
                            model.cancel()
                            continue
                        }
                        // Each next() is one unit of demand in the model.
                        model.request(.max(1))
                        var expected: Int?
                        if model.outstanding > 0, next < count, !model.isTerminated {
                            model.deliver(next)
                            expected = next
                            next += 1
                        } else {
                            model.complete()
                        }
                        let got = await iterator.next()
                        if got != expected {
                            return "step \(step), next(): \(String(describing: got)), model \(String(describing: expected))"
                        }
                        if let bound = variant.readAhead, produced.value > model.values.count + bound + 1 {
                            return "step \(step): \(produced.value) elements read for \(model.values.count) returned"
                        }
                    }
                    return nil
                }.value
                #expect(failure == nil, "seed \(seed) (SLUICE_SEED=\(seed)), \(count) elements, \(operations): \(failure ?? "")")
            }
        }
}
}

extension ValuesVariant {
    /// How many elements the variant may have requested beyond the `next()` calls made (its
    /// demand in the model); nil for the buffering variants, which request `.unlimited`.
    var readAhead: Int? {
        switch self {
        case .onDemand: 0
        case .prefetch: 2
        case .unbounded, .oldest, .newest: nil
        }
    }
}

/// `0..<count` as a plain sequence that counts the elements its iterators produced, so that a
/// test sees how far ahead of its consumer a publisher of it was asked to read.
struct CountingNumbers: Sequence, Sendable {
    let count: Int
    let produced: ProducedCounter

    struct Iterator: IteratorProtocol {
        let count: Int
        let produced: ProducedCounter
        var index = 0

        mutating func next() -> Int? {
            guard index < count else { return nil }
            defer { index += 1 }
            produced.add()
            return index
        }
    }

    func makeIterator() -> Iterator { Iterator(count: count, produced: produced) }
}
