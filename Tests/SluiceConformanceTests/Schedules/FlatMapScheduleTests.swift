// Seeded random schedules of request / cancel through flatMap over synchronous inners of
// random sizes, with a random maxPublishers. Replay a seed with
// `SLUICE_SEED=<seed> swift test --filter FlatMapSchedule`.
import Testing
import Sluice
import SluiceTesting

@Suite("FlatMapSchedule: flatMap over synchronous inners, random request / cancel, against the demand model")
struct FlatMapScheduleTests {
    /// Every inner is a sequence, so flatMap fills demand at once: after each request the
    /// subscriber holds as many values as the model's demand allows (no fewer, none beyond),
    /// each inner's in order, none twice; it finishes only after all of them, and nothing comes
    /// after a cancel. Unlimited demand then brings the rest.
    @Test("delivers exactly as many values as demand allows, each inner's in order, none lost or twice")
    func schedule() {
        Self.check()
    }

    /// The check of ``schedule()``, with `fault` (if any) between flatMap and its recorder.
    static func check(fault: InjectedFault? = nil) {
        for seed in ScheduleSeeds.seeds(count: syncScheduleSeeds) {
            var random = SplitMix64(seed: seed)
            let sizes = (0..<Int.random(in: 0...4, using: &random)).map { _ in Int.random(in: 0...4, using: &random) }
            let maxPublishers: Subscribers.Demand = Bool.random(using: &random) ? .unlimited : .max(Int.random(in: 1...2, using: &random))
            let expected = sizes.enumerated().flatMap { inner, size in (0..<size).map { inner * 100 + $0 } }

            var model = DemandModel<Int>(demandPerValue: random.demandPerValue())
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none, demandPerValue: model.demandPerValue)
            defer { recorder.cancel() }
            sizes.enumerated().publisher
                .flatMap(maxPublishers: maxPublishers) { inner, size in (0..<size).publisher.map { inner * 100 + $0 } }
                .subscribe(recorder, injecting: fault)
            var trace: [String] = []
            var endedBeforeCancel = false

            func check(_ step: String) -> Bool {
                trace.append(step)
                let context = "seed \(seed) (SLUICE_SEED=\(seed)), inners \(sizes), maxPublishers \(maxPublishers), \(trace)"
                let values = recorder.values
                // The model takes the values in the order they came, to count their demand.
                while model.values.count < values.count, model.outstanding > 0, !model.isTerminated {
                    model.deliver(values[model.values.count])
                }
                let allowed = model.isTerminated ? model.values.count : min(expected.count, model.values.count + (model.outstanding == .unlimited ? expected.count : model.outstanding.max ?? 0))
                let breaches = recorder.violations + orderBreaches(values)
                if !breaches.isEmpty || values.count != model.values.count || values.count != allowed {
                    Issue.record("values \(values) (\(values.count), allowed \(allowed)), breaches \(breaches); \(context)")
                    return false
                }
                if recorder.completion != nil, byInner(values) != byInner(expected) || (model.cancelled && !endedBeforeCancel) {
                    Issue.record("completion after \(values), expected \(expected); \(context)")
                    return false
                }
                return true
            }

            var stepsOK = true
            for _ in 0..<12 where stepsOK {
                if Int.random(in: 0..<100, using: &random) < 85 {
                    let demand = random.demand()
                    recorder.request(demand)
                    model.request(demand)
                    stepsOK = check("request(\(demand))")
                } else {
                    if !model.cancelled { endedBeforeCancel = recorder.completion != nil }
                    recorder.cancel()
                    model.cancel()
                    stepsOK = check("cancel")
                }
            }
            guard stepsOK, !model.cancelled else { continue }
            recorder.request(.unlimited)
            #expect(byInner(recorder.values) == byInner(expected), "seed \(seed): \(recorder.values), expected \(expected)")
            #expect(recorder.completion == .finished, "seed \(seed)")
        }
    }

    /// The first breach of per-inner order (values are `inner * 100 + rank`), or a value twice.
    /// Each inner's values, in the order they came: flatMap keeps each inner's order (which
    /// this compares), not an order across inners.
    private static func byInner(_ values: [Int]) -> [Int: [Int]] {
        Dictionary(grouping: values, by: { $0 / 100 })
    }

    private static func orderBreaches(_ values: [Int]) -> [String] {
        var last: [Int: Int] = [:]
        for value in values {
            if let previous = last[value / 100], previous >= value { return ["\(value) after \(previous)"] }
            last[value / 100] = value
        }
        return []
    }
}
