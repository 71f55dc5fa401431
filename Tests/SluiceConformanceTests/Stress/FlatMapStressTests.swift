// Stress of flatMap and switchToLatest: inner publishers sending on their own threads at once,
// into limited and unlimited demand, while the downstream requests (flatMap) or the upstream
// switches (switchToLatest) from another thread.
import Testing
import Sluice
import SluiceTesting

@Suite("Stress: flatMap, switchToLatest", .timeLimit(.minutes(12)))
struct FlatMapStressTests {
    /// One operation = one accepted `send`: 4 inners × 25,000 values, each inner a `create`
    /// whose sender retries a refused value (flatMap asks each inner for one value at a time
    /// while demand is limited), plus the downstream's requests.
    @Test("flatMap: inners sending from four threads: every value once, each inner's in order, never beyond demand; the subscriber let go at the end",
        arguments: [Subscribers.Demand.unlimited, .max(1)])
    func flatMapRacingInners(demandPerValue: Subscribers.Demand) {
        Self.checkFlatMapRacingInners(demandPerValue: demandPerValue)
    }

    /// The check of ``flatMapRacingInners(demandPerValue:)``, with `fault` (if any) between
    /// flatMap and its subscriber.
    static func checkFlatMapRacingInners(demandPerValue: Subscribers.Demand, fault: InjectedFault? = nil) {
        let senders = 4
        let perSender = StressBudget.scaled(100_000) / senders
        let producers = Locked<[Int: StressProducer<Tagged>]>([:])
        let inners = (0..<senders).map { sender in
            AnyPublisher<Tagged, Never>.emitting { producer in producers.withLock { $0[sender] = producer } }
        }
        let initial: Subscribers.Demand = demandPerValue == .unlimited ? .unlimited : .max(1)
        let recorder = RecordingSubscriber<Tagged, Never>(initialDemand: initial, demandPerValue: demandPerValue)
        let live = LiveCounter()
        inners.publisher.flatMap(maxPublishers: .max(2)) { $0 }.subscribe(TrackedSubscriber(recorder, live: live), injecting: fault)
        runConcurrently(threads: senders + 1) { thread in
            guard thread < senders else {
                for _ in 0..<perSender { recorder.request(.max(1)) }
                return
            }
            // At most two inners are subscribed at once: the others wait for a finished one.
            var producer: StressProducer<Tagged>?
            while producer == nil {
                producer = producers.withLock { $0[thread] }
                if producer == nil { yieldThread() }
            }
            for rank in 0..<perSender {
                while !producer!.send(Tagged(sender: thread, rank: rank)) { yieldThread() }
            }
            producer!.send(completion: .finished)
        }
        let (breach, counts) = perSenderOrder(recorder.values, senders: senders)
        #expect(breach == nil, "per-inner order broken or a value twice: \(breach ?? "")")
        #expect(counts == [Int](repeating: perSender, count: senders), "values lost")
        #expect(recorder.completion == .finished, "it finishes once every inner has")
        #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
        #expect(live.current == 0, "the subscriber is let go after the completion")
    }

    /// One operation = one `send` to an inner or one switch: 4 inners × 20,000 sends, and
    /// 20,000 switches among them from a fifth thread, while the downstream asks for one more
    /// with each value. A value of an inner that is not current is dropped.
    @Test("switchToLatest: switching while inners send from four threads: each inner's values in order, none twice, never beyond demand; the subscriber let go after cancel",
        arguments: [Subscribers.Demand.unlimited, .max(1)])
    func switchRacingInners(demandPerValue: Subscribers.Demand) {
        Self.checkSwitchRacingInners(demandPerValue: demandPerValue)
    }

    /// The check of ``switchRacingInners(demandPerValue:)``, with `fault` (if any) between
    /// switchToLatest and its subscriber.
    static func checkSwitchRacingInners(demandPerValue: Subscribers.Demand, fault: InjectedFault? = nil) {
        let senders = 4
        let perThread = StressBudget.scaled(100_000) / (senders + 1)
        let inners = (0..<senders).map { _ in PassthroughSubject<Tagged, Never>() }
        let upstream = PassthroughSubject<Int, Never>()
        let initial: Subscribers.Demand = demandPerValue == .unlimited ? .unlimited : .max(1)
        let recorder = RecordingSubscriber<Tagged, Never>(initialDemand: initial, demandPerValue: demandPerValue)
        let live = LiveCounter()
        upstream.map { inners[$0] }.switchToLatest().subscribe(TrackedSubscriber(recorder, live: live), injecting: fault)
        upstream.send(0)
        runConcurrently(threads: senders + 1) { thread in
            guard thread < senders else {
                for step in 0..<perThread {
                    upstream.send(step % senders)
                    if demandPerValue != .unlimited { recorder.request(.max(1)) }
                }
                return
            }
            for rank in 0..<perThread { inners[thread].send(Tagged(sender: thread, rank: rank)) }
        }
        let (breach, _) = perSenderOrder(recorder.values, senders: senders)
        #expect(breach == nil, "per-inner order broken or a value twice: \(breach ?? "")")
        // Whatever the race left, the demand not yet met carries over to the next inner.
        let before = recorder.valueCount
        upstream.send(0)
        inners[0].send(Tagged(sender: -1, rank: 0))
        #expect(recorder.valueCount == before + 1, "a value of the current inner, with demand, is delivered")
        #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
        #expect(recorder.completion == nil)
        recorder.cancel()
        #expect(live.current == 0, "the subscriber is let go after the cancel")
    }
}
