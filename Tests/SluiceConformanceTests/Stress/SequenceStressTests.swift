// Stress of Publishers.Sequence: requests and cancels from several threads at once.
import Dispatch
import Testing
import Sluice
import SluiceTesting

@Suite("Stress: Publishers.Sequence", .timeLimit(.minutes(12)))
struct SequenceStressTests {
    /// One operation = one `request(.max(1))`: 2 threads × 50,000 (100,000 requests, each
    /// delivering one element synchronously on whichever thread asked).
    @Test("requests of one from two threads deliver every element exactly once, in order, then finish")
    func concurrentRequestsDeliverInOrder() {
        Self.checkConcurrentRequests()
    }

    /// The check of ``concurrentRequestsDeliverInOrder()``, with `fault` (if any) between the
    /// sequence and its recorder.
    static func checkConcurrentRequests(fault: InjectedFault? = nil) {
        let count = StressBudget.scaled(100_000)
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        (0..<count).publisher.subscribe(recorder, injecting: fault)
        runConcurrently(threads: 2) { _ in
            for _ in 0..<count / 2 { recorder.request(.max(1)) }
        }
        recorder.request(.max(1))  // whether or not the last element already finished it
        #expect(recorder.values == Array(0..<count), "lost, duplicated or reordered elements")
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
    }

    /// One operation = one `subscribe`, `request` or `cancel`: 25,000 subscriptions, each
    /// subscribed, asked for one element by one thread, for two by another, and cancelled by a
    /// third (100,000 operations).
    @Test("requests racing with cancel deliver an in-order prefix, nothing after the cancel, and release the subscriber")
    func requestsRacingWithCancel() {
        Self.checkRequestsRacingWithCancel()
    }

    /// The check of ``requestsRacingWithCancel()``, with `fault` (if any) between each
    /// sequence and its recorder.
    static func checkRequestsRacingWithCancel(fault: InjectedFault? = nil) {
        let subscriptions = StressBudget.scaled(100_000) / 4
        let recorders = (0..<subscriptions).map { _ in RecordingSubscriber<Int, Never>(initialDemand: .none) }
        for recorder in recorders { (0..<10).publisher.subscribe(recorder, injecting: fault) }
        let seenAtCancel = Locked([Int](repeating: 0, count: subscriptions))
        runConcurrently(threads: 3) { thread in
            switch thread {
            case 0:
                for recorder in recorders { recorder.request(.max(1)) }
            case 1:
                for recorder in recorders.reversed() { recorder.request(.max(2)) }
            default:
                for (index, recorder) in recorders.enumerated() {
                    recorder.cancel()
                    let seen = recorder.values.count
                    seenAtCancel.withLock { $0[index] = seen }
                }
            }
        }
        let seen = seenAtCancel.withLock { $0 }
        var weakRecorders: [WeakRecorder<Int>] = []
        for (index, recorder) in recorders.enumerated() {
            let values = recorder.values
            #expect(values == Array(0..<values.count), "not an in-order prefix: \(values)")
            #expect(values.count <= 3)
            #expect(values.count - seen[index] <= 1, "\(values.count - seen[index]) values after cancel returned")
            #expect(recorder.completion == nil)
            #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
            weakRecorders.append(WeakRecorder(recorder: recorder))
        }
        _ = consume recorders
        #expect(weakRecorders.allSatisfy { $0.recorder == nil }, "a cancelled subscription keeps its subscriber")
    }
}
