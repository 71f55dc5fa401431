// Stress of Publishers.Emitting / AnyPublisher.emitting: sends, requests and cancels from
// several threads at once.
import Dispatch
import Synchronization
import Testing
import Sluice
import SluiceTesting

/// Holds the producer a `create` body was given, so that other threads can send through it.
typealias StressProducer<Output> = Publishers.Emitting<Output, Never>.Emitter

@Suite("Stress: Publishers.Emitting", .timeLimit(.minutes(12)))
struct EmittingStressTests {
    /// One operation = one `send` or one `request(.max(1))`: one thread sends 0..<100,000
    /// (waiting on a semaphore, signalled by `onRequest`, when a send is refused) while two
    /// threads request 50,000 × `.max(1)` each (at least 200,000 operations).
    @Test("a sender racing with requests from two threads delivers every value exactly once, in order")
    func senderRacingWithRequestsDeliversInOrder() {
        Self.checkSenderRacingWithRequests()
    }

    /// The check of ``senderRacingWithRequestsDeliversInOrder()``, with `fault` (if any)
    /// between the publisher and its recorder.
    static func checkSenderRacingWithRequests(fault: InjectedFault? = nil) {
        let count = StressBudget.scaled(100_000)
        let demandArrived = DispatchSemaphore(value: 0)
        let handle = Locked<StressProducer<Int>?>(nil)
        let publisher = AnyPublisher<Int, Never>.emitting { producer in
            producer.onRequest { _ in demandArrived.signal() }
            handle.withLock { $0 = producer }
        }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        publisher.subscribe(recorder, injecting: fault)
        let producer = handle.withLock { $0 }!
        // The sender waits for demand, so it runs on a queue of its own: it must not
        // occupy a thread of the pool the test's tasks need.
        let senderDone = DispatchSemaphore(value: 0)
        DispatchQueue(label: "sluice.stress.create-sender").async {
            var next = 0
            while next < count {
                if producer.send(next) {
                    next += 1
                } else if !demandArrived.wait(for: "a request after a refused send (value \(next))") {
                    break
                }
            }
            producer.send(completion: .finished)
            senderDone.signal()
        }
        runConcurrently(threads: 2) { _ in
            for _ in 0..<count / 2 { recorder.request(.max(1)) }
        }
        senderDone.wait(for: "the sender to finish")
        #expect(recorder.values == Array(0..<count), "lost, duplicated or reordered values")
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
        #expect(producer.send(count) == false, "a send after the completion was accepted")
    }

    /// One operation = one `send`: 4 threads × 25,000 sends into unlimited demand.
    @Test("sends from four threads into unlimited demand arrive serially, once each, in per-sender order")
    func concurrentSendersKeepPerSenderOrder() {
        let senders = 4
        let perSender = StressBudget.scaled(100_000) / senders
        let handle = Locked<StressProducer<Tagged>?>(nil)
        let publisher = AnyPublisher<Tagged, Never>.emitting { producer in handle.withLock { $0 = producer } }
        let recorder = RecordingSubscriber<Tagged, Never>()
        publisher.subscribe(recorder)
        let producer = handle.withLock { $0 }!
        let refused = Atomic<Int>(0)
        runConcurrently(threads: senders) { sender in
            for rank in 0..<perSender where !producer.send(Tagged(sender: sender, rank: rank)) {
                refused.wrappingAdd(1, ordering: .relaxed)
            }
        }
        let (breach, counts) = perSenderOrder(recorder.values, senders: senders)
        #expect(breach == nil, "per-sender order broken: \(breach ?? "")")
        #expect(counts == [Int](repeating: perSender, count: senders))
        #expect(refused.load(ordering: .relaxed) == 0)
        #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
        producer.send(completion: .finished)  // the subscription and the recorder hold each other until then
    }

    /// One operation = one `subscribe`, `request` or `cancel`: 25,000 subscriptions to an
    /// endless counter, each subscribed, asked for three values by one thread while a second
    /// thread asks for one more and a third cancels (100,000 operations).
    @Test("requests racing with cancel: no value twice, at most one after cancel, onCancel exactly once, subscriber released")
    func requestsRacingWithCancel() {
        Self.checkRequestsRacingWithCancel()
    }

    /// The check of ``requestsRacingWithCancel()``, with `fault` (if any) between each
    /// subscription and its recorder.
    static func checkRequestsRacingWithCancel(fault: InjectedFault? = nil) {
        let subscriptions = StressBudget.scaled(100_000) / 4
        let cancels = Atomic<Int>(0)
        let publisher = AnyPublisher<Int, Never>.emitting { producer in
            // The handler runs on two threads at once: the sender sends from one at a time.
            let sender = OrderedSender(producer, count: .max) {}
            producer.onRequest { _ in sender.pump() }
            producer.onCancel { cancels.wrappingAdd(1, ordering: .relaxed) }
        }
        let recorders = (0..<subscriptions).map { _ in RecordingSubscriber<Int, Never>(initialDemand: .none) }
        for recorder in recorders { publisher.subscribe(recorder, injecting: fault) }
        let seenAtCancel = Locked([Int](repeating: 0, count: subscriptions))
        runConcurrently(threads: 3) { thread in
            switch thread {
            case 0: for recorder in recorders { recorder.request(.max(3)) }
            case 1: for recorder in recorders.reversed() { recorder.request(.max(1)) }
            default:
                for (index, recorder) in recorders.enumerated() {
                    recorder.cancel()
                    recorder.cancel()
                    let seen = recorder.values.count
                    seenAtCancel.withLock { $0[index] = seen }
                }
            }
        }
        let seen = seenAtCancel.withLock { $0 }
        #expect(cancels.load(ordering: .relaxed) == subscriptions, "onCancel not called exactly once per subscription")
        var weakRecorders: [WeakRecorder<Int>] = []
        for (index, recorder) in recorders.enumerated() {
            let values = recorder.values
            #expect(values.count <= 4)
            #expect(values == Array(0..<values.count), "not an in-order prefix: \(values)")
            #expect(values.count - seen[index] <= 1, "\(values.count - seen[index]) values after cancel returned")
            #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
            weakRecorders.append(WeakRecorder(recorder: recorder))
        }
        _ = consume recorders
        #expect(weakRecorders.allSatisfy { $0.recorder == nil }, "a cancelled subscription keeps its subscriber")
    }
}
