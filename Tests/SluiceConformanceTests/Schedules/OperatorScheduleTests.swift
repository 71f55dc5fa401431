// Seeded random schedules of request / cancel through every operator of the registry, over a
// synchronous upstream of random length that finishes or fails. Replay a seed with
// `SLUICE_SEED=<seed> swift test --filter OperatorSchedule`.
import Testing
import Sluice
import SluiceTesting

@Suite("OperatorSchedule: every operator, random request / cancel, against the demand model")
struct OperatorScheduleTests {
    struct Operation: Sendable, CustomTestStringConvertible {
        let name: String
        let transform: Registry.Transform
        let expect: Registry.Expectation
        /// The pass-through list's expectations are for upstreams with values (replaceEmpty).
        var leastCount = 0
        var testDescription: String { name }
    }

    /// The pass-through operators (values unchanged) and the shaping ones (with what they make
    /// of their upstream's values and ending).
    static let operations: [Operation] =
        Registry.operatorTransforms.map { operation in
            Operation(name: operation.name, transform: operation.transform, expect: { values, ending in (values, ending) }, leastCount: 1)
        }
        + Registry.shapingOperators.map { Operation(name: $0.name, transform: $0.transform, expect: $0.expect) }

    /// Over a synchronous upstream an operator fills the demand at once: after each request,
    /// the subscriber holds exactly as many of the expected values as the demand allowed (the
    /// model). A completion comes only after every expected value, and is the expected one;
    /// nothing comes after a cancel; and whatever the schedule left, unlimited demand brings
    /// the rest and the ending.
    @Test("delivers the expected values exactly as demand allows, in order, then the expected ending",
        arguments: operations)
    func schedule(_ operation: Operation) {
        Self.check(operation)
    }

    /// The check of ``schedule(_:)``, with `fault` (if any) between the operator and its recorder.
    static func check(_ operation: Operation, fault: InjectedFault? = nil) {
        for seed in ScheduleSeeds.seeds(count: syncScheduleSeeds / 3) {
            var random = SplitMix64(seed: seed)
            let count = Int.random(in: operation.leastCount...8, using: &random)
            // retry and replaceError change a failing upstream's values: their expectation is for finishing ones.
            let fails = Bool.random(using: &random) && !Registry.nonFailingUpstreamsOnly.contains(operation.name)
            let ending: Entry.Ending = fails ? .failure : .finished
            let upstream: AnyPublisher<Int, TestFailure> = fails
                ? (0..<count).publisher.widened().append(Fail(error: TestFailure())).eraseToAnyPublisher()
                : (0..<count).publisher.widened().eraseToAnyPublisher()
            let (expected, expectedEnding) = operation.expect(Array(0..<count), ending)

            var model = DemandModel<Int>(demandPerValue: random.demandPerValue())
            let recorder = RecordingSubscriber<Int, TestFailure>(initialDemand: .none, demandPerValue: model.demandPerValue)
            defer { recorder.cancel() }
            operation.transform(upstream).subscribe(recorder, injecting: fault)
            var cancelled = false
            var endedBeforeCancel = false
            var trace: [String] = []

            func check(_ step: String) -> Bool {
                trace.append(step)
                let context = "seed \(seed) (SLUICE_SEED=\(seed)), \(count) values then \(ending), \(trace)"
                if !recorder.violations.isEmpty {
                    Issue.record("contract breaches: \(recorder.violations); \(context)")
                    return false
                }
                if recorder.values != model.values {
                    Issue.record("values \(recorder.values), model \(model.values) of \(expected); \(context)")
                    return false
                }
                if let completion = recorder.completion {
                    let isExpected = (completion == .finished) == (expectedEnding == .finished) && expectedEnding != .never
                    if (cancelled && !endedBeforeCancel) || recorder.values != expected || !isExpected {
                        Issue.record("completion \(completion) after \(recorder.values), expected \(expected) then \(expectedEnding); \(context)")
                        return false
                    }
                }
                return true
            }

            var stepsOK = true
            for _ in 0..<12 where stepsOK {
                if Int.random(in: 0..<100, using: &random) < 85 {
                    let demand = random.demand()
                    recorder.request(demand)
                    model.request(demand)
                    while model.outstanding > 0, model.values.count < expected.count, !model.isTerminated {
                        model.deliver(expected[model.values.count])
                    }
                    stepsOK = check("request(\(demand))")
                } else {
                    if !cancelled { endedBeforeCancel = recorder.completion != nil }
                    recorder.cancel()
                    model.cancel()
                    cancelled = true
                    stepsOK = check("cancel")
                }
            }
            guard stepsOK, !cancelled, recorder.completion == nil else { continue }
            recorder.request(.unlimited)
            #expect(recorder.values == expected, "seed \(seed): after unlimited demand, \(recorder.values), expected \(expected)")
            let ended = recorder.completion.map { $0 == .finished ? Entry.Ending.finished : .failure }
            #expect(ended == expectedEnding, "seed \(seed): ended with \(String(describing: recorder.completion)), expected \(expectedEnding)")
        }
    }
}
