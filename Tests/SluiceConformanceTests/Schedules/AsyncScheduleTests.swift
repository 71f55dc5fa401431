// Seeded random schedules of request / cancel over the asynchronous bridge publishers: after
// each request the test awaits the deliveries the model expects, then compares.
import Testing
@_spi(Internals) import Sluice
import SluiceTesting

extension AsyncStressSuites {
    @Suite("RandomSchedule: asynchronous bridge publishers", .timeLimit(.minutes(2)))
    struct AsyncScheduleTests {
        /// Endless sources, so that every demand is eventually met; finite demands only (an
        /// endless source with `.unlimited` demand never lets the test catch up).
        @Test("endless async sequence publisher and Producer: random request / cancel deliver exactly the demanded prefix",
            arguments: ["asyncSequence", "producer"])
        func endlessSources(source: String) async {
            for seed in ScheduleSeeds.seeds(count: asyncScheduleSeeds) {
                var random = SplitMix64(seed: seed)
                var model = DemandModel<Int>(demandPerValue: .none)
                let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
                let produced = ProducedCounter()
                if source == "asyncSequence" {
                    CountingAsyncSequence(limit: nil, produced: produced).publisher.subscribe(recorder)
                } else {
                    Producer<Int, Never> { sender in
                        var value = 0
                        while await sender.send(value) { value += 1 }
                    }.subscribe(recorder)
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
    }
}
