// Stress of Publishers.MergeMany: upstreams sending on their own threads at once, into limited
// and unlimited demand, while the downstream requests from another thread.
import Testing
import Sluice
import SluiceTesting

@Suite("Stress: merge", .timeLimit(.minutes(12)))
struct MergeStressTests {
    /// One operation = one accepted `send`: 4 upstreams × 25,000 values, each upstream a
    /// `create` whose sender retries a refused value (the merge asks each upstream for one
    /// value at a time while demand is limited), plus the downstream's requests.
    @Test("upstreams sending from four threads: every value once, each upstream's in order, never beyond demand",
        arguments: [Subscribers.Demand.unlimited, .max(1)])
    func racingUpstreams(demandPerValue: Subscribers.Demand) {
        Self.checkRacingUpstreams(demandPerValue: demandPerValue)
    }

    /// The check of ``racingUpstreams(demandPerValue:)``, with `fault` (if any) between the
    /// merge and its recorder.
    static func checkRacingUpstreams(demandPerValue: Subscribers.Demand, fault: InjectedFault? = nil) {
        let senders = 4
        let perSender = StressBudget.scaled(100_000) / senders
        let producers = Locked<[Int: StressProducer<Tagged>]>([:])
        let upstreams = (0..<senders).map { sender in
            AnyPublisher<Tagged, Never>.emitting { producer in producers.withLock { $0[sender] = producer } }
        }
        // Limited: the downstream asks for one more with each value, and a thread of its own
        // requests more meanwhile.
        let initial: Subscribers.Demand = demandPerValue == .unlimited ? .unlimited : .max(1)
        let recorder = RecordingSubscriber<Tagged, Never>(initialDemand: initial, demandPerValue: demandPerValue)
        Publishers.MergeMany(upstreams).subscribe(recorder, injecting: fault)
        let all = producers.withLock { $0 }
        runConcurrently(threads: senders + 1) { thread in
            guard let producer = all[thread] else {
                for _ in 0..<perSender { recorder.request(.max(1)) }
                return
            }
            for rank in 0..<perSender {
                while !producer.send(Tagged(sender: thread, rank: rank)) { yieldThread() }
            }
            producer.send(completion: .finished)
        }
        let (breach, counts) = perSenderOrder(recorder.values, senders: senders)
        #expect(breach == nil, "per-upstream order broken or a value twice: \(breach ?? "")")
        #expect(counts == [Int](repeating: perSender, count: senders), "values lost")
        #expect(recorder.completion == .finished, "the merge finishes once every upstream has")
        #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
    }
}
