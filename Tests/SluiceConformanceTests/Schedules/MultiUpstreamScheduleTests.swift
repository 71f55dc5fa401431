// Seeded random schedules through the operators with two upstreams (zip, combineLatest,
// merge): the upstreams send (only what they were asked for), finish and fail, and the
// downstream requests and cancels, in random order; each step is checked against a model of
// the operator. Replay a seed with `SLUICE_SEED=<seed> swift test --filter MultiUpstreamSchedule`.
import Testing
import Sluice
import SluiceTesting

/// What the downstream of a two-upstream operator must have seen, step by step.
private protocol TwoUpstreamModel {
    init()
    /// Upstream `index` sent `value`.
    mutating func receive(_ value: Int, at index: Int, into model: inout DemandModel<[Int]>)
    /// The downstream's demand grew (after `model.request`).
    mutating func demanded(into model: inout DemandModel<[Int]>)
    /// Upstream `index` finished.
    mutating func finished(_ index: Int, into model: inout DemandModel<[Int]>)
}

/// `zip`: unmatched values queue in order; it finishes when a finished upstream has nothing left.
private struct ZipModel: TwoUpstreamModel {
    var queues: [[Int]] = [[], []]
    var finished = [false, false]
    mutating func receive(_ value: Int, at index: Int, into model: inout DemandModel<[Int]>) {
        queues[index].append(value)
        demanded(into: &model)
    }
    mutating func demanded(into model: inout DemandModel<[Int]>) {
        while model.outstanding > 0, !model.isTerminated, !queues[0].isEmpty, !queues[1].isEmpty {
            model.deliver([queues[0].removeFirst(), queues[1].removeFirst()])
        }
        if (0...1).contains(where: { finished[$0] && queues[$0].isEmpty }) { model.complete() }
    }
    mutating func finished(_ index: Int, into model: inout DemandModel<[Int]>) {
        finished[index] = true
        demanded(into: &model)
    }
}

/// `combineLatest`: a value with demand, once both have sent, publishes both latest; without
/// demand it is only remembered. It finishes when both upstreams have.
private struct CombineLatestModel: TwoUpstreamModel {
    var latest: [Int?] = [nil, nil]
    var finished = [false, false]
    mutating func receive(_ value: Int, at index: Int, into model: inout DemandModel<[Int]>) {
        latest[index] = value
        if let a = latest[0], let b = latest[1] { model.offer([a, b]) }
    }
    mutating func demanded(into model: inout DemandModel<[Int]>) {}
    mutating func finished(_ index: Int, into model: inout DemandModel<[Int]>) {
        finished[index] = true
        if !finished.contains(false) { model.complete() }
    }
}

/// `merge`: a value without demand waits in its upstream's slot; slots go out in upstream
/// order when demand comes; it finishes when both have and no slot holds a value.
private struct MergeModel: TwoUpstreamModel {
    var slots: [Int?] = [nil, nil]
    var finished = [false, false]
    mutating func receive(_ value: Int, at index: Int, into model: inout DemandModel<[Int]>) {
        if !model.offer([value]) { slots[index] = value }
    }
    mutating func demanded(into model: inout DemandModel<[Int]>) {
        for index in 0...1 where model.outstanding > 0 && !model.isTerminated {
            if let value = slots[index] {
                slots[index] = nil
                model.deliver([value])
            }
        }
        if !finished.contains(false), slots.allSatisfy({ $0 == nil }) { model.complete() }
    }
    mutating func finished(_ index: Int, into model: inout DemandModel<[Int]>) {
        finished[index] = true
        demanded(into: &model)
    }
}

@Suite("MultiUpstreamSchedule: zip, combineLatest and merge against their models under random schedules")
struct MultiUpstreamScheduleTests {
    struct Operator: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @Sendable (ControllablePublisher<Int, TestFailure>, ControllablePublisher<Int, TestFailure>) -> AnyPublisher<[Int], TestFailure>
        var testDescription: String { name }
    }

    static let operators = [
        Operator(name: "zip") { $0.zip($1) { [$0, $1] }.eraseToAnyPublisher() },
        Operator(name: "combineLatest") { $0.combineLatest($1) { [$0, $1] }.eraseToAnyPublisher() },
        Operator(name: "merge") { $0.merge(with: $1).map { [$0] }.eraseToAnyPublisher() },
    ]

    @Test("each step delivers what the model does, each upstream is asked for what the operator promises, and nothing follows the end",
        arguments: operators)
    func schedule(_ op: Operator) {
        Self.check(op)
    }

    /// The check of ``schedule(_:)``, with `fault` (if any) between the operator and its recorder.
    static func check(_ op: Operator, fault: InjectedFault? = nil) {
        switch op.name {
        case "zip": run(op, model: ZipModel.self, fault: fault)
        case "combineLatest": run(op, model: CombineLatestModel.self, fault: fault)
        default: run(op, model: MergeModel.self, fault: fault)
        }
    }

    private static func run<Model: TwoUpstreamModel>(_ op: Operator, model _: Model.Type, fault: InjectedFault?) {
        for seed in ScheduleSeeds.seeds(count: syncScheduleSeeds) {
            var random = SplitMix64(seed: seed)
            let upstreams = [ControllablePublisher<Int, TestFailure>(), ControllablePublisher<Int, TestFailure>()]
            var model = DemandModel<[Int]>(demandPerValue: random.demandPerValue())
            var shape = Model()
            let recorder = RecordingSubscriber<[Int], TestFailure>(initialDemand: .none, demandPerValue: model.demandPerValue)
            defer { recorder.cancel() }
            op.make(upstreams[0], upstreams[1]).subscribe(recorder, injecting: fault)
            let subscriptions = upstreams.map { $0.subscriptions[0] }
            var returned = [Subscribers.Demand.none, .none]
            var sent = [0, 0]
            var ended = [false, false]
            var failed = false
            var requestedTotal = Subscribers.Demand.none
            var trace: [String] = []

            for _ in 0..<30 {
                let roll = Int.random(in: 0..<100, using: &random)
                let index = Int.random(in: 0...1, using: &random)
                let asked = subscriptions[index].requestedDemand + returned[index]
                if roll < 25 {
                    let demand = random.demand()
                    trace.append("request(\(demand))")
                    recorder.request(demand)
                    if !model.isTerminated { requestedTotal += demand }
                    model.request(demand)
                    shape.demanded(into: &model)
                } else if roll < 80 {
                    // A well-behaved upstream sends only what it was asked for.
                    guard !ended[index], asked > sent[index] else { continue }
                    let value = (index + 1) * 100 + sent[index]
                    sent[index] += 1
                    trace.append("\(index) sends \(value)")
                    returned[index] += subscriptions[index].send(value)
                    if !failed { shape.receive(value, at: index, into: &model) }
                } else if roll < 93 {
                    guard !ended[index] else { continue }
                    ended[index] = true
                    trace.append("\(index) finishes")
                    subscriptions[index].send(completion: .finished)
                    if !failed { shape.finished(index, into: &model) }
                } else if roll < 97 {
                    guard !ended[index] else { continue }
                    ended[index] = true
                    trace.append("\(index) fails")
                    subscriptions[index].send(completion: .failure(TestFailure()))
                    if !failed && !model.isTerminated { failed = true; model.complete() }
                } else {
                    trace.append("cancel")
                    recorder.cancel()
                    model.cancel()
                }
                let context = "seed \(seed) (SLUICE_SEED=\(seed)): \(trace)"
                #expect(recorder.violations.isEmpty, "\(recorder.violations); \(context)")
                #expect(recorder.values == model.values, "values \(recorder.values), model \(model.values); \(context)")
                #expect((recorder.completion != nil) == model.completed, "completion \(String(describing: recorder.completion)); \(context)")
                if let completion = recorder.completion {
                    #expect((completion != .finished) == failed, "\(completion); \(context)")
                }
                // What each upstream was asked for, against what the downstream asked for.
                let downstreamTotal = requestedTotal + Subscribers.Demand.max(model.values.count) * (model.demandPerValue.max ?? 0)
                for upstream in 0...1 where !ended[upstream] && !model.isTerminated {
                    let asked = subscriptions[upstream].requestedDemand + returned[upstream]
                    let bound = "upstream \(upstream) asked for \(asked), sent \(sent[upstream]), downstream asked for \(downstreamTotal), outstanding \(model.outstanding); \(context)"
                    switch op.name {
                    case "zip":  // each tuple takes one value of each upstream: each is asked for all
                        #expect(asked == downstreamTotal, "\(bound)")
                    case "combineLatest":  // requests go to all, returned demand to the sender
                        #expect(asked <= downstreamTotal && asked >= requestedTotal, "\(bound)")
                    default:  // merge: one value at a time while demand is limited
                        #expect(model.outstanding == .unlimited || asked - sent[upstream] <= .max(1), "\(bound)")
                    }
                }
                if !recorder.violations.isEmpty || recorder.values != model.values { return }
            }
        }
    }
}
