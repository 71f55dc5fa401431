import Dispatch
import Sluice
import Synchronization
import SluiceTesting
import Testing

@Suite("Publishers.Sequence", .timeLimit(.minutes(12)))
struct SequencePublisherTests {
    @Test func unlimitedDemandDeliversEveryElementInOrderThenFinishes() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2, 3].publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func limitedDemandDeliversOnlyWhatWasRequestedAndFinishesRightAfterTheLastElement() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.subscribe(recorder)
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3, 4, 5])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveIsCounted() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (0..<100).publisher.subscribe(recorder)
        #expect(recorder.values == Array(0..<100))
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test func emptySequenceSendsSubscriptionThenFinishedWithoutDemand() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        [Int]().publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .completion(.finished)])
    }

    @Test func infiniteSequenceIsIteratedOnlyAsFarAsDemanded() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
        (0...).publisher.subscribe(recorder)
        #expect(recorder.values == [0, 1, 2])
        recorder.cancel()
    }

    @Test func oneMillionElementsWithDemandOneAtATimeFromInsideReceiveDoNotOverflowTheStack() {
        let subscriber = CountingSubscriber(requestInsideReceive: true)
        (0..<1_000_000).publisher.subscribe(subscriber)
        let (count, finished) = (subscriber.count.load(ordering: .relaxed), subscriber.finished.load(ordering: .relaxed))
        #expect(count == 1_000_000)
        #expect(finished)
    }

    @Test func oneMillionElementsWithDemandReturnedFromReceiveDoNotOverflowTheStack() {
        let subscriber = CountingSubscriber(requestInsideReceive: false)
        (0..<1_000_000).publisher.subscribe(subscriber)
        let (count, finished) = (subscriber.count.load(ordering: .relaxed), subscriber.finished.load(ordering: .relaxed))
        #expect(count == 1_000_000)
        #expect(finished)
    }

    @Test func reentrantRequestInsideReceiveIsDeliveredAfterTheCurrentValueReturns() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        recorder.onValue { [weak recorder] value in
            if value == 0 { recorder?.request(.max(2)) }
            return .none
        }
        (0..<10).publisher.subscribe(recorder)
        #expect(recorder.values == [0, 1, 2])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()  // the subscription and the recorder hold each other until then
    }

    @Test func cancelInsideReceiveStopsDeliveryAtOnce() {
        let recorder = RecordingSubscriber<Int, Never>()
        recorder.onValue { [weak recorder] value in
            if value == 2 { recorder?.cancel() }
            return .none
        }
        (0..<10).publisher.subscribe(recorder)
        #expect(recorder.values == [0, 1, 2])
        #expect(recorder.completion == nil)
    }

    @Test func cancelIsIdempotentAndLaterRequestsDoNothing() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        (0..<10).publisher.subscribe(recorder)
        recorder.cancel()
        recorder.cancel()
        recorder.request(.max(5))
        #expect(recorder.values == [0])
        #expect(recorder.completion == nil)
    }

    @Test func requestsFromManyThreadsDeliverExactlyTheDemandSerially() {
        for _ in 0..<200 {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            (0...).publisher.subscribe(recorder)
            runConcurrently(threads: 8) { _ in
                for _ in 0..<10 { recorder.request(.max(1)) }
            }
            #expect(recorder.values == Array(0..<80))
            #expect(recorder.violations.isEmpty)
            recorder.cancel()
        }
    }

    @Test func cancelRacingRequestNeverBreaksTheContract() {
        for _ in 0..<StressBudget.scaled(2_000) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            (0..<50).publisher.subscribe(recorder)
            runConcurrently(threads: 3) { index in
                if index == 0 { recorder.cancel() } else { recorder.request(.max(20)) }
            }
            let values = recorder.values
            #expect(values == Array(0..<values.count))
            #expect(values.count <= 40)
            #expect(recorder.completion == nil)
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func subscriberIsReleasedAfterCancel() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
            weakRecorder = recorder
            (0..<10).publisher.subscribe(recorder)
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
    }

    @Test func subscriberIsReleasedAfterCompletion() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            (0..<10).publisher.subscribe(recorder)
            #expect(recorder.completion == .finished)
        }
        #expect(weakRecorder == nil)
    }

    @Test func subscriptionDescribesItsSequenceWhileActiveAndSequenceAfterwards() throws {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        [1, 2].publisher.subscribe(recorder)
        let subscription = try #require(recorder.subscription)
        #expect(String(describing: subscription) == "[1, 2]")
        #expect(Mirror(reflecting: subscription).children.first?.label == "sequence")
        recorder.cancel()
        #expect(String(describing: subscription) == "Sequence")
    }

    @Test func publisherKeepsItsSequenceAndComparesByIt() {
        let publisher = Publishers.Sequence<[Int], Never>(sequence: [1, 2])
        #expect(publisher.sequence == [1, 2])
        #expect(publisher == [1, 2].publisher)
    }

    @Test("request(.none) adds nothing and does not trap, as Combine's sequence subscription does")
    func requestingZeroDemandIsAccepted() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        [1, 2].publisher.subscribe(recorder)
        recorder.subscription?.request(.none)
        #expect(recorder.values.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.values == [1])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }
}

/// Counts values with the least overhead, to test a million elements; requests one more
/// per value either re-entrantly through `request(_:)` or by returning it.
private final class CountingSubscriber: Subscriber, @unchecked Sendable {
    // Safe: the subscription is written once in receive(subscription:) before any value,
    // and signals are serial (rule 3); the counters are atomics.
    let count = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)
    private let requestInsideReceive: Bool
    private var subscription: (any Subscription)?

    init(requestInsideReceive: Bool) {
        self.requestInsideReceive = requestInsideReceive
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        count.add(1, ordering: .relaxed)
        if requestInsideReceive {
            subscription?.request(.max(1))
            return .none
        }
        return .max(1)
    }

    func receive(completion: Subscribers.Completion<Never>) {
        finished.store(true, ordering: .relaxed)
        subscription = nil
    }
}
