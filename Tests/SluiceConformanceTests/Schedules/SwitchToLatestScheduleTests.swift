// Seeded random schedules through switchToLatest over subjects: new inners, sends to the
// current and to replaced inners, completions of either, requests and cancels, against the
// demand model. Replay a seed with `SLUICE_SEED=<seed> swift test --filter SwitchToLatestSchedule`.
import Testing
import Sluice
import SluiceTesting

@Suite("SwitchToLatestSchedule: switchToLatest over subjects, random steps, against the demand model")
struct SwitchToLatestScheduleTests {
    /// The downstream's outstanding demand is what the current inner may send (the rest is
    /// dropped by the inner subject, as any subject drops without demand); a replaced inner is
    /// cancelled, so nothing it sends arrives; the stream finishes when the outer has finished
    /// and the current inner (if any) has too; nothing comes after a cancel.
    @Test("delivers only the current inner's values, within demand carried across switches")
    func schedule() {
        Self.check()
    }

    /// The check of ``schedule()``, with `fault` (if any) between switchToLatest and its recorder.
    static func check(fault: InjectedFault? = nil) {
        for seed in ScheduleSeeds.seeds(count: syncScheduleSeeds) {
            var random = SplitMix64(seed: seed)
            var model = DemandModel<Int>(demandPerValue: random.demandPerValue())
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none, demandPerValue: model.demandPerValue)
            defer { recorder.cancel() }
            let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
            // Some values switch to a new inner from inside their own receive(_:): the demand
            // the downstream returns for them then goes to the new inner, not the sender.
            let switching = SwitchingInsideReceive(outer: outer)
            let demandPerValue = model.demandPerValue
            recorder.onValue { value in
                switching.switchIfAsked(at: value)
                return demandPerValue
            }
            outer.switchToLatest().subscribe(recorder, injecting: fault)

            var inners: [PassthroughSubject<Int, Never>] = []
            var currentFinished = false
            var outerFinished = false
            var next = 0
            var trace: [String] = []

            func check(_ step: String) -> Bool {
                trace.append(step)
                let expectedCompletion: Subscribers.Completion<Never>? = model.completed ? .finished : nil
                guard recorder.values == model.values, recorder.completion == expectedCompletion,
                      recorder.violations.isEmpty
                else {
                    Issue.record("""
                        values \(recorder.values), expected \(model.values); completion \(String(describing: recorder.completion)), \
                        expected \(String(describing: expectedCompletion)); violations \(recorder.violations); \
                        seed \(seed) (SLUICE_SEED=\(seed)), \(trace)
                        """)
                    return false
                }
                return true
            }

            var stepsOK = true
            for _ in 0..<24 where stepsOK {
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<25:
                    let demand = random.demand()
                    recorder.request(demand)
                    model.request(demand)
                    stepsOK = check("request(\(demand))")
                case 25..<40 where !outerFinished:  // a finished outer (a subject) sends nothing more
                    let inner = PassthroughSubject<Int, Never>()
                    inners.append(inner)
                    currentFinished = false
                    outer.send(inner)
                    stepsOK = check("new inner \(inners.count - 1)")
                case 40..<75 where !inners.isEmpty:
                    next += 1
                    let switchesInside = !outerFinished && Int.random(in: 0..<5, using: &random) == 0
                    if switchesInside { switching.ask(at: next) }
                    inners[inners.count - 1].send(next)
                    // Delivered (the model says so), the value made a new inner; a publisher
                    // that lost it made none, which the check below reports.
                    if !currentFinished, model.offer(next), switchesInside, let inner = switching.takeInner() {
                        inners.append(inner)
                        currentFinished = false
                    }
                    stepsOK = check("send \(next) to the current inner\(switchesInside ? ", which switches inside its receive" : "")")
                case 75..<83 where inners.count > 1:
                    next += 1
                    inners[Int.random(in: 0..<(inners.count - 1), using: &random)].send(next)
                    stepsOK = check("send \(next) to a replaced inner")
                case 83..<90 where !inners.isEmpty && !currentFinished:
                    currentFinished = true
                    inners[inners.count - 1].send(completion: .finished)
                    if outerFinished { model.complete() }
                    stepsOK = check("finish the current inner")
                case 90..<95 where !outerFinished:
                    outerFinished = true
                    outer.send(completion: .finished)
                    if inners.isEmpty || currentFinished { model.complete() }
                    stepsOK = check("finish the outer")
                case 95..<100:
                    recorder.cancel()
                    model.cancel()
                    stepsOK = check("cancel")
                default:
                    break
                }
            }
            for inner in inners { inner.send(completion: .finished) }
        }
    }
}

/// A new inner sent to the outer from inside the receive(_:) of a chosen value.
private struct SwitchingInsideReceive: Sendable {
    let outer: PassthroughSubject<PassthroughSubject<Int, Never>, Never>
    private let state = Locked<(at: Int?, made: PassthroughSubject<Int, Never>?)>((nil, nil))

    init(outer: PassthroughSubject<PassthroughSubject<Int, Never>, Never>) { self.outer = outer }

    func ask(at value: Int) { state.withLock { $0 = (value, nil) } }

    func switchIfAsked(at value: Int) {
        guard state.withLock({ $0.at == value }) else { return }
        let inner = PassthroughSubject<Int, Never>()
        state.withLock { $0 = (nil, inner) }
        outer.send(inner)
    }

    /// The inner made inside receive(_:), if the value was delivered.
    func takeInner() -> PassthroughSubject<Int, Never>? {
        state.withLock { state in
            defer { state = (nil, nil) }
            return state.made
        }
    }
}
