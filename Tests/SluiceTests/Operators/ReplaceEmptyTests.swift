import Testing
import Sluice
import SluiceTesting

// Each recorder is cancelled on leaving its test (`defer`): an operator's subscription keeps
// its subscriber until it ends, and the recorder keeps its subscription, so a test that left
// one open would leave the pair alive (the leak checker reports it).

@Suite("replaceEmpty(with:)")
struct ReplaceEmptyTests {
    @Test("an upstream that finishes without elements is replaced by the element, then .finished")
    func emptyReplaced() {
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        Empty<Int, Never>().replaceEmpty(with: 7).subscribe(recorder)
        #expect(recorder.values == [7])
        #expect(recorder.completion == .finished)
        #expect(recorder.subscription.map { "\($0)" } == "ReplaceEmpty")
        #expect(recorder.violations.isEmpty)
    }

    @Test("elements pass through and no replacement follows them")
    func elementsPassThrough() {
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        [1, 2].publisher.replaceEmpty(with: 7).subscribe(recorder)
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == .finished)
    }

    @Test("a failure without elements passes through, not replaced")
    func failurePassesThrough() {
        let recorder = RecordingSubscriber<Int, TestError>()
        defer { recorder.cancel() }
        Fail<Int, TestError>(error: TestError(code: 3)).replaceEmpty(with: 7).subscribe(recorder)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == .failure(TestError(code: 3)))
    }

    @Test("it asks the upstream for .unlimited, as Combine's does; with no demand at the end, the replacement waits")
    func replacementWaitsForDemand() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.replaceEmpty(with: 7).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.unlimited])
        subscription.send(completion: .finished)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == nil)
        recorder.request(.max(2))
        #expect(recorder.values == [7])
        #expect(recorder.completion == .finished)
        #expect(subscription.requests == [.unlimited])
        #expect(recorder.violations.isEmpty)
    }

    @Test("the downstream's requests reach the upstream unchanged, around its own .unlimited; a cancel reaches it once")
    func requestsAndCancel() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        defer { recorder.cancel() }
        upstream.replaceEmpty(with: 7).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.send(1) == .max(1))
        recorder.request(.max(4))
        // The downstream's first request came inside its subscription, before the operator's own.
        #expect(subscription.requests == [.max(1), .unlimited, .max(4)])
        recorder.cancel()
        recorder.cancel()
        #expect(subscription.cancelCount == 1)
        subscription.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
    }

    @Test("elements beyond the downstream's demand wait for it, in order, and the completion follows the last")
    func elementsBeyondDemandWait() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        upstream.replaceEmpty(with: 7).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        for value in 1...4 { #expect(subscription.send(value) == .none) }
        subscription.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3, 4], "no replacement: the upstream was not empty")
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("an element that comes while others wait queues behind them, also when the downstream has demand by then")
    func laterElementsQueueBehindWaitingOnes() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.setFailureType(to: TestError.self).replaceEmpty(with: 7).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(1)
        _ = subscription.send(2)
        recorder.request(.max(1))
        _ = subscription.send(3)
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2])
        // From inside a delivery: the demand it returns is handed to the waiting element first.
        recorder.onValue { _ in .max(1) }
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3])
        _ = subscription.send(4)
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.violations.isEmpty)
    }

    @Test("an element sent from inside the delivery of a kept one waits for that delivery, though demand came first")
    func elementSentInsideAKeptDeliveryWaits() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        subject.replaceEmpty(with: -1).subscribe(recorder)
        subject.send(1)
        recorder.onValue { [weak recorder] value in
            if value == 1 {
                recorder?.request(.max(1))
                subject.send(2)
            }
            return .none
        }
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2])
        #expect(recorder.violations.isEmpty, "2 went out inside the delivery of 1")
    }

    @Test("a failure waits behind the elements kept for demand; a cancel drops them and the failure")
    func failureWaitsAndCancelDrops() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.replaceEmpty(with: 7).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(1)
        _ = subscription.send(2)
        subscription.send(completion: .failure(TestError(code: 1)))
        recorder.request(.max(1))
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
        recorder.cancel()
        recorder.request(.max(1))
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)

        let second = RecordingSubscriber<Int, TestError>(initialDemand: .none)
        defer { second.cancel() }
        upstream.replaceEmpty(with: 7).subscribe(second)
        _ = upstream.subscriptions[1].send(5)
        upstream.subscriptions[1].send(completion: .failure(TestError(code: 2)))
        second.request(.max(1))
        #expect(second.values == [5])
        #expect(second.completion == .failure(TestError(code: 2)))
    }

    @Test("requests racing the upstream's elements: every element arrives once, in order, within the demand")
    func requestsRacingElements() {
        // One race of many steps: the sender runs into kept elements, the requester drains them, and each
        // finds the other mid-way (one barrier, so no pile of small races that wait on busy threads).
        let count = StressBudget.scaled(20_000)
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        subject.replaceEmpty(with: -1).subscribe(recorder)
        // Two requesters: one drains while the other adds demand, which an element sent meanwhile must
        // not take past the one being drained.
        runConcurrently(threads: 3) { thread in
            if thread == 0 {
                for value in 0..<count { subject.send(value) }
                subject.send(completion: .finished)
            } else {
                for _ in 0..<count / 2 { recorder.request(.max(1)) }
            }
        }
        #expect(recorder.values == Array(0..<count))
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }
}
