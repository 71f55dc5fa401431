// Stress of zip and combineLatest: two upstreams sending on their own threads at once, into
// limited and unlimited demand, while the downstream requests, or cancels, from another thread.
import Testing
import Sluice
import SluiceTesting

@Suite("Stress: zip and combineLatest", .timeLimit(.minutes(12)))
struct TupleStressTests {
    /// Two `create` upstreams, each sending `count` ranks from its own thread (retrying a value
    /// refused for want of demand), subscribed through `join`, and a third thread requesting
    /// one more at a time; returns the recorder once both upstreams are done.
    private static func race(
        count: Int, demandPerValue: Subscribers.Demand, fault: InjectedFault?,
        _ join: (AnyPublisher<Int, Never>, AnyPublisher<Int, Never>) -> AnyPublisher<[Int], Never>
    ) -> RecordingSubscriber<[Int], Never> {
        let producers = Locked<[Int: StressProducer<Int>]>([:])
        let upstreams = (0..<2).map { side in
            AnyPublisher<Int, Never>.emitting { producer in producers.withLock { $0[side] = producer } }
        }
        let initial: Subscribers.Demand = demandPerValue == .unlimited ? .unlimited : .max(1)
        let recorder = RecordingSubscriber<[Int], Never>(initialDemand: initial, demandPerValue: demandPerValue)
        join(upstreams[0], upstreams[1]).subscribe(recorder, injecting: fault)
        let both = producers.withLock { $0 }
        runConcurrently(threads: 3) { thread in
            guard let producer = both[thread] else {
                for _ in 0..<count { recorder.request(.max(1)) }
                return
            }
            for rank in 0..<count {
                while !producer.send(rank) { yieldThread() }
            }
            producer.send(completion: .finished)
        }
        return recorder
    }

    /// One operation = one accepted `send`: 2 × 50,000 per demand mode.
    @Test("zip: every pair once, in order, matched rank with rank, never beyond demand",
        arguments: [Subscribers.Demand.unlimited, .max(1)])
    func zipRace(demandPerValue: Subscribers.Demand) {
        Self.checkZipRace(demandPerValue: demandPerValue)
    }

    /// The check of ``zipRace(demandPerValue:)``, with `fault` (if any) between zip and its recorder.
    static func checkZipRace(demandPerValue: Subscribers.Demand, fault: InjectedFault? = nil) {
        let count = StressBudget.scaled(100_000) / 2
        let recorder = race(count: count, demandPerValue: demandPerValue, fault: fault) { $0.zip($1) { [$0, $1] }.eraseToAnyPublisher() }
        let values = recorder.values
        #expect(values.count == count, "pairs lost")
        let firstBreach = values.indices.first { values[$0] != [$0, $0] }
        #expect(firstBreach == nil, "pair \(firstBreach ?? -1) is \(firstBreach.map { values[$0] } ?? [])")
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
    }

    /// One operation = one `send` offered: 2 × 50,000 per demand mode. A value that arrives
    /// without demand is only remembered, so fewer tuples than values may come out.
    @Test("combineLatest: each side's element never goes back, never beyond demand; with unlimited demand the last tuple is both last elements",
        arguments: [Subscribers.Demand.unlimited, .max(1)])
    func combineLatestRace(demandPerValue: Subscribers.Demand) {
        Self.checkCombineLatestRace(demandPerValue: demandPerValue)
    }

    /// The check of ``combineLatestRace(demandPerValue:)``, with `fault` (if any) between
    /// combineLatest and its recorder.
    static func checkCombineLatestRace(demandPerValue: Subscribers.Demand, fault: InjectedFault? = nil) {
        let count = StressBudget.scaled(100_000) / 2
        let recorder = race(count: count, demandPerValue: demandPerValue, fault: fault) {
            $0.combineLatest($1) { [$0, $1] }.eraseToAnyPublisher()
        }
        let values = recorder.values
        let backwards = zip(values, values.dropFirst()).first { $0[0] > $1[0] || $0[1] > $1[1] }
        #expect(backwards == nil, "an element went back: \(backwards.map { "\($0) then \($1)" } ?? "")")
        if demandPerValue == .unlimited {
            #expect(values.last == [count - 1, count - 1])
            #expect(values.count >= count, "with unlimited demand, every element after the first pair makes a tuple")
        }
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
    }

    /// One operation = one accepted `send` or the cancel: 100,000 in all.
    @Test("cancel racing two sending upstreams: nothing after the cancel, and the subscriber is released",
        arguments: ["zip", "combineLatest"])
    func cancelRace(kind: String) {
        Self.checkCancelRace(kind: kind)
    }

    /// The check of ``cancelRace(kind:)``, with `fault` (if any) between the join and its recorder.
    static func checkCancelRace(kind: String, fault: InjectedFault? = nil) {
        let rounds = StressBudget.scaled(200)
        let perRound = 250
        for _ in 0..<rounds {
            let left = PassthroughSubject<Int, Never>()
            let right = PassthroughSubject<Int, Never>()
            weak var released: RecordingSubscriber<[Int], Never>?
            do {
                let recorder = RecordingSubscriber<[Int], Never>()
                released = recorder
                let joined = kind == "zip"
                    ? left.zip(right) { [$0, $1] }.eraseToAnyPublisher()
                    : left.combineLatest(right) { [$0, $1] }.eraseToAnyPublisher()
                joined.subscribe(recorder, injecting: fault)
                runConcurrently(threads: 3) { thread in
                    switch thread {
                    case 0: for value in 0..<perRound { left.send(value) }
                    case 1: for value in 0..<perRound { right.send(value) }
                    default: recorder.cancel()
                    }
                }
                let settled = recorder.valueCount
                left.send(-1)
                right.send(-1)
                #expect(recorder.valueCount == settled && recorder.completion == nil)
                #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
            }
            #expect(released == nil, "the subscriber is held after the cancel")
        }
    }
}
