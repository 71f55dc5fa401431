// Seeded random schedules of request / cancel / send / complete over each publisher family,
// compared with the demand model after every step. A failure names its seed; replay it with
// `SLUICE_SEED=<seed> swift test --filter RandomSchedule`.
import Testing
import Sluice
import SluiceTesting

/// How many seeds each synchronous family runs (40 steps each), and each asynchronous one.
let syncScheduleSeeds = 300
let asyncScheduleSeeds = 30

/// Compares what the recorder got with what the model allows; `nil` when they agree.
func mismatch<Value: Equatable & Sendable, Failure: Error>(
    _ recorder: RecordingSubscriber<Value, Failure>, _ model: DemandModel<Value>
) -> String? {
    if !recorder.violations.isEmpty { return "contract breaches: \(recorder.violations)" }
    if recorder.values != model.values { return "values \(recorder.values), model \(model.values)" }
    if (recorder.completion != nil) != model.completed {
        return "completion \(String(describing: recorder.completion)), model completed: \(model.completed)"
    }
    return nil
}

@Suite("RandomSchedule: seeded schedules against the demand model")
struct RandomScheduleTests {
    @Test("subjects: random request / send / cancel / complete deliver exactly what the model allows",
        arguments: StressSubjectKind.allCases)
    func subjects(kind: StressSubjectKind) {
        switch kind {
        case .passthrough: Self.checkSubject(PassthroughSubject<Int, Never>(), hasCurrentValue: false)
        case .currentValue: Self.checkSubject(CurrentValueSubject<Int, Never>(-1), hasCurrentValue: true)
        }
    }

    /// Random schedules over subjects made by `make` (a `CurrentValueSubject` of -1 when
    /// `hasCurrentValue`), against the model; the mutant tests pass broken subjects.
    static func checkSubject<S: Subject>(_ make: @autoclosure () -> S, hasCurrentValue: Bool) where S.Output == Int, S.Failure == Never {
        for seed in ScheduleSeeds.seeds(count: syncScheduleSeeds) {
            var random = SplitMix64(seed: seed)
            var model = DemandModel<Int>(demandPerValue: random.demandPerValue())
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none, demandPerValue: model.demandPerValue)
            defer { recorder.cancel() }  // a subscription left open holds the recorder, which holds it
            let subject = make()
            // The current value goes out with the first demand, and again with the next request
            // after a value was dropped for want of demand (Combine's CurrentValueSubject).
            var currentPending = hasCurrentValue
            var current = -1
            subject.subscribe(recorder)
            for step in 0..<40 {
                let roll = Int.random(in: 0..<100, using: &random)
                let operation: String
                switch roll {
                case 0..<35:
                    let demand = random.demand()
                    operation = "request(\(demand))"
                    recorder.request(demand)
                    model.request(demand)
                    if currentPending, model.outstanding > 0, !model.isTerminated {
                        model.deliver(current)
                        currentPending = false
                    }
                case 35..<90:
                    operation = "send(\(step))"
                    subject.send(step)
                    if !model.isTerminated { current = step }
                    let delivered = model.offer(step)
                    if hasCurrentValue, !model.isTerminated { currentPending = !delivered }
                case 90..<95:
                    operation = "cancel"
                    recorder.cancel()
                    model.cancel()
                default:
                    operation = "complete"
                    subject.send(completion: .finished)
                    model.complete()
                }
                let difference = mismatch(recorder, model)
                #expect(difference == nil, "seed \(seed) (SLUICE_SEED=\(seed)), step \(step), \(operation): \(difference ?? "")")
                if difference != nil { break }
            }
        }
    }

    @Test("Publishers.Emitting: random request / send / cancel / complete: sends accepted exactly when the model has demand")
    func create() {
        for seed in ScheduleSeeds.seeds(count: syncScheduleSeeds) {
            var random = SplitMix64(seed: seed)
            var model = DemandModel<Int>(demandPerValue: random.demandPerValue())
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none, demandPerValue: model.demandPerValue)
            defer { recorder.cancel() }  // a subscription left open holds the recorder, which holds it
            let handle = Locked<StressProducer<Int>?>(nil)
            AnyPublisher<Int, Never>.emitting { producer in handle.withLock { $0 = producer } }.subscribe(recorder)
            let producer = handle.withLock { $0 }!
            for step in 0..<40 {
                let roll = Int.random(in: 0..<100, using: &random)
                var operation: String
                switch roll {
                case 0..<35:
                    let demand = random.demand()
                    operation = "request(\(demand))"
                    recorder.request(demand)
                    model.request(demand)
                case 35..<90:
                    let accepted = producer.send(step)
                    let expected = model.offer(step)
                    operation = "send(\(step)) → \(accepted)"
                    #expect(accepted == expected, "seed \(seed) (SLUICE_SEED=\(seed)), step \(step): send returned \(accepted)")
                case 90..<95:
                    operation = "cancel"
                    recorder.cancel()
                    model.cancel()
                default:
                    operation = "complete"
                    producer.send(completion: .finished)
                    model.complete()
                }
                let difference = mismatch(recorder, model)
                #expect(difference == nil, "seed \(seed) (SLUICE_SEED=\(seed)), step \(step), \(operation): \(difference ?? "")")
                if difference != nil { break }
            }
        }
    }

    @Test("Future: random request / fulfil / cancel: the value and finished go out once there is demand and a result")
    func future() {
        for seed in ScheduleSeeds.seeds(count: syncScheduleSeeds) {
            var random = SplitMix64(seed: seed)
            var model = DemandModel<Int>(demandPerValue: random.demandPerValue())
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none, demandPerValue: model.demandPerValue)
            var promise: Future<Int, Never>.Promise?
            Future<Int, Never> { promise = $0 }.subscribe(recorder)
            var result: Int?
            for step in 0..<20 {
                let roll = Int.random(in: 0..<100, using: &random)
                let operation: String
                switch roll {
                case 0..<50:
                    let demand = random.demand()
                    operation = "request(\(demand))"
                    recorder.request(demand)
                    model.request(demand)
                case 50..<90:
                    operation = "fulfil(\(step))"
                    promise?(.success(step))
                    if result == nil { result = step }
                default:
                    operation = "cancel"
                    recorder.cancel()
                    model.cancel()
                }
                if let result, model.outstanding > 0, !model.isTerminated {
                    model.deliver(result)
                    model.complete()
                }
                let difference = mismatch(recorder, model)
                #expect(difference == nil, "seed \(seed) (SLUICE_SEED=\(seed)), step \(step), \(operation): \(difference ?? "")")
                if difference != nil { break }
            }
        }
    }
    @Test("Publishers.Sequence, Record and the one-shot publishers: random request / cancel deliver exactly what the model allows, then their completion",
        arguments: FiniteFamily.allCases)
    func finite(family: FiniteFamily) {
        for seed in ScheduleSeeds.seeds(count: syncScheduleSeeds) {
            var random = SplitMix64(seed: seed)
            var model = DemandModel<Int>(demandPerValue: random.demandPerValue())
            let (publisher, count, ending) = family.make(&random)
            let recorder = RecordingSubscriber<Int, TestFailure>(initialDemand: .none, demandPerValue: model.demandPerValue)
            publisher.subscribe(recorder)
            var next = 0
            // A publisher with no values completes at once, without demand (Combine's Empty,
            // Fail, Optional.Publisher(nil), Result.Publisher(failure), an empty Record).
            if count == 0 { model.complete() }
            for step in 0..<40 {
                let operation: String
                if Int.random(in: 0..<100, using: &random) < 85 {
                    let demand = random.demand()
                    operation = "request(\(demand))"
                    recorder.request(demand)
                    model.request(demand)
                    while model.outstanding > 0, next < count, !model.isTerminated {
                        model.deliver(next)
                        next += 1
                    }
                    if next == count { model.complete() }
                } else {
                    operation = "cancel"
                    recorder.cancel()
                    model.cancel()
                }
                var difference = mismatch(recorder, model)
                if difference == nil, let completion = recorder.completion, completion != ending {
                    difference = "completion \(completion), expected \(ending)"
                }
                #expect(difference == nil, "seed \(seed) (SLUICE_SEED=\(seed)), step \(step), \(operation), \(count) elements: \(difference ?? "")")
                if difference != nil { break }
            }
        }
    }
}

/// The synchronous finite families of the schedules: `Record` and the one-shot publishers.
enum FiniteFamily: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sequence, record, just, optional, result, empty, fail
    var testDescription: String { rawValue }

    /// A publisher of `0..<count` then `ending`, drawn at random where the family has shapes.
    func make(_ random: inout SplitMix64) -> (any Publisher<Int, TestFailure>, Int, Subscribers.Completion<TestFailure>) {
        let fails = Bool.random(using: &random)
        switch self {
        case .sequence:
            let count = Int.random(in: 1...12, using: &random)
            return ((0..<count).publisher.widened(), count, .finished)
        case .record:
            let count = Int.random(in: 0...12, using: &random)
            let ending: Subscribers.Completion<TestFailure> = fails ? .failure(TestFailure()) : .finished
            return (Record<Int, TestFailure>(output: Array(0..<count), completion: ending), count, ending)
        case .just:
            return (Just(0).widened(), 1, .finished)
        case .optional:
            return fails ? (Optional<Int>.Publisher(nil).widened(), 0, .finished) : (Optional(0).publisher.widened(), 1, .finished)
        case .result:
            return fails
                ? (Result<Int, TestFailure>.Publisher(TestFailure()), 0, .failure(TestFailure()))
                : (Result<Int, TestFailure>.Publisher(0), 1, .finished)
        case .empty:
            return (Empty<Int, TestFailure>(), 0, .finished)
        case .fail:
            return (Fail<Int, TestFailure>(error: TestFailure()), 0, .failure(TestFailure()))
        }
    }
}
