import Dispatch
import Sluice
import SluiceTesting
import Synchronization
import Testing

private final class Token: Sendable {}

@Suite(.timeLimit(.minutes(12))) struct EmittingTests {
    /// A producer that sends 0, 1, 2, … for as long as there is demand, up to `limit`.
    private func counter(limit: Int) -> AnyPublisher<Int, Never> {
        .emitting { producer in
            let next = Locked(0)
            producer.onRequest { _ in
                // onRequest may run re-entrantly (from inside receive), so a value is taken
                // before it is sent and given back if the send is refused.
                while true {
                    let value = next.withLock { next -> Int? in
                        guard next < limit else { return nil }
                        next += 1
                        return next - 1
                    }
                    guard let value else {
                        producer.send(completion: .finished)
                        return
                    }
                    guard producer.send(value) else {
                        next.withLock { $0 -= 1 }
                        return
                    }
                }
            }
        }
    }

    @Test func producerNeverDeliversBeyondDemandAndReportsOutstandingDemand() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
        counter(limit: 10).subscribe(recorder)
        #expect(recorder.values == [0, 1, 2])
        recorder.request(.max(2))
        #expect(recorder.values == [0, 1, 2, 3, 4])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()  // the subscription and the recorder hold each other until then
    }

    @Test func sendWithoutDemandIsRefusedAndDemandIsVisible() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        let results = Locked<[Bool]>([])
        let demands = Locked<[Subscribers.Demand]>([])
        Publishers.Emitting<Int, Never> { producer in
            results.withLock { $0.append(producer.send(1)) }
            producer.onRequest { demand in
                demands.withLock { $0.append(producer.demand) }
                results.withLock { $0.append(producer.send(2)) }
                demands.withLock { $0.append(producer.demand) }
            }
        }.subscribe(recorder)
        recorder.request(.max(2))
        #expect(results.withLock { $0 } == [false, true])
        #expect(demands.withLock { $0 } == [.max(2), .max(1)])
        #expect(recorder.values == [2])
        recorder.cancel()  // the subscription and the recorder hold each other until then
    }

    @Test func completionFollowsAcceptedValuesAndNothingFollowsIt() {
        let recorder = RecordingSubscriber<Int, Never>()
        let afterCompletion = Locked<Bool?>(nil)
        Publishers.Emitting<Int, Never> { producer in
            producer.send(1)
            producer.send(completion: .finished)
            afterCompletion.withLock { $0 = producer.send(2) }
            producer.send(completion: .finished)
            #expect(producer.isTerminated)
        }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
        #expect(afterCompletion.withLock { $0 } == false)
    }

    @Test func reentrantRequestInsideReceiveStaysBoundedForManyElements() {
        let count = 100_000
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        recorder.onValue { [weak recorder] _ in
            recorder?.request(.max(1))
            return .none
        }
        counter(limit: count).subscribe(recorder)
        #expect(recorder.values.count == count)
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveIsCounted() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        counter(limit: 50).subscribe(recorder)
        // The handler only runs on request(_:); demand returned from receive is usable by
        // later sends, which the counter makes in its loop.
        #expect(recorder.values == Array(0..<50))
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelRunsOnCancelExactlyOnceAndReleasesEverything() {
        let cancels = Atomic<Int>(0)
        weak var weakToken: Token?
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            Publishers.Emitting<Int, Never> { producer in
                producer.onRequest { _ in _ = token; _ = producer }
                producer.onCancel {
                    _ = token
                    cancels.wrappingAdd(1, ordering: .relaxed)
                }
            }.subscribe(recorder)
            subscription = recorder.subscription
            runConcurrently(threads: 4) { _ in recorder.cancel() }
        }
        #expect(cancels.load(ordering: .relaxed) == 1)
        #expect(weakToken == nil)
        #expect(weakRecorder == nil)
        #expect(subscription != nil)
    }

    @Test func cancelRacingRequestNeverExceedsDemand() {
        for _ in 0..<1_000 {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            counter(limit: 1_000).subscribe(recorder)
            runConcurrently(threads: 4) { index in
                if index == 3 { recorder.cancel() } else { recorder.request(.max(2)) }
            }
            #expect(recorder.violations.isEmpty)
            #expect(recorder.values.count <= 6)
        }
    }

    @Test func sendsFromManyThreadsNeverOverlapAndNeverExceedDemand() async {
        let threads = 8
        let perThread = 2_000
        let demand = 10_000
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(demand))
        let accepted = Atomic<Int>(0)
        Publishers.Emitting<Int, Never> { producer in
            runConcurrently(threads: threads) { thread in
                for i in 0..<perThread where producer.send(thread * perThread + i) {
                    accepted.wrappingAdd(1, ordering: .relaxed)
                }
            }
        }.subscribe(recorder)
        await recorder.waitForValues(count: demand)
        #expect(accepted.load(ordering: .relaxed) == demand)
        #expect(recorder.values.count == demand)
        #expect(Set(recorder.values).count == demand)
        #expect(recorder.violations.isEmpty)
        recorder.cancel()  // the subscription and the recorder hold each other until then
    }

    @Test func onCancelRegisteredAfterCancelRunsAtOnceAndNotAfterCompletion() {
        let recorder = RecordingSubscriber<Int, Never>()
        let cancels = Atomic<Int>(0)
        Publishers.Emitting<Int, Never> { producer in
            producer.send(completion: .finished)
            producer.onCancel { cancels.wrappingAdd(1, ordering: .relaxed) }
        }.subscribe(recorder)
        recorder.cancel()
        #expect(cancels.load(ordering: .relaxed) == 0)

        let cancelled = RecordingSubscriber<Int, Never>()
        cancelled.onValue { _ in .none }
        Publishers.Emitting<Int, Never> { producer in
            cancelled.cancel()
            producer.onCancel { cancels.wrappingAdd(1, ordering: .relaxed) }
        }.subscribe(cancelled)
        #expect(cancels.load(ordering: .relaxed) == 1)
    }

    @Test(.exitTest) func requestNoneTrapsNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            Publishers.Emitting<Int, Never> { _ in }.subscribe(recorder)
            recorder.subscription!.request(.none)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("greater than zero (rule 2)"))
        }
    }
}
