import Dispatch
import Sluice
import SluiceTesting
import Testing

@Suite("PassthroughSubject", .timeLimit(.minutes(12)))
struct PassthroughSubjectTests {
    @Test func eachSubscriberReceivesValuesWithinItsOwnDemand() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let limited = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        let unlimited = RecordingSubscriber<Int, Never>()
        subject.subscribe(limited)
        subject.subscribe(unlimited)
        subject.send(1)
        subject.send(2)
        #expect(limited.values == [1])
        #expect(unlimited.values == [1, 2])
        #expect(limited.violations.isEmpty && unlimited.violations.isEmpty)
    }

    @Test func valueSentWhileSubscriberHasNoDemandIsDropped() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        subject.send(1)
        recorder.request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(recorder.values == [2])
    }

    @Test func demandReturnedFromReceiveIsCounted() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.subscribe(recorder)
        for value in 0..<5 { subject.send(value) }
        #expect(recorder.values == [0, 1, 2, 3, 4])
        #expect(recorder.violations.isEmpty)
    }

    @Test func completionReachesSubscribersOnceAndNothingFollowsIt() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .completion(.failure(TestError()))])
        #expect(recorder.violations.isEmpty)
    }

    @Test func lateSubscriberReceivesTheCompletionAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        #expect(recorder.events == [.subscription, .completion(.finished)])
    }

    @Test func reentrantSendInsideReceiveIsDeliveredAfterThatReceiveReturns() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>()
        let seenDuringSend = Locked<[Int]?>(nil)
        recorder.onValue { [weak recorder] value in
            if value == 1 {
                subject.send(2)
                let values = recorder?.values
                seenDuringSend.withLock { $0 = values }
            }
            return .none
        }
        subject.subscribe(recorder)
        subject.send(1)
        #expect(seenDuringSend.withLock { $0 } == [1])
        #expect(recorder.values == [1, 2])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelInsideReceiveStopsDeliveryAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        recorder.onValue { [weak recorder] _ in
            recorder?.cancel()
            subject.send(99)
            return .none
        }
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func cancelIsIdempotentAndReleasesTheSubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            subject.subscribe(recorder)
            subject.send(1)
            recorder.cancel()
            recorder.cancel()
            subject.send(2)
            #expect(recorder.values == [1])
        }
        #expect(weakRecorder == nil)
    }

    @Test func completionReleasesTheSubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            subject.subscribe(recorder)
            subject.send(completion: .finished)
        }
        #expect(weakRecorder == nil)
    }

    @Test func concurrentSendsAreSerialisedKeepEachSendersOrderAndLoseNothing() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorders = (0..<2).map { _ in RecordingSubscriber<Int, Never>() }
        for recorder in recorders { subject.subscribe(recorder) }
        runConcurrently(threads: 8) { sender in
            for index in 0..<10_000 { subject.send(sender * 100_000 + index) }
        }
        for recorder in recorders {
            let values = recorder.values
            #expect(values.count == 80_000)
            #expect(recorder.violations.isEmpty)
            for sender in 0..<8 {
                let mine = values.filter { $0 / 100_000 == sender }
                #expect(mine == (0..<10_000).map { sender * 100_000 + $0 })
            }
        }
    }

    @Test func reentrantSendFromAnEarlierSubscriberReachesLaterOnesAfterTheOuterValue() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let first = RecordingSubscriber<Int, Never>()
        first.onValue { value in
            if value < 3 { subject.send(value + 1) }
            return .none
        }
        let later = (0..<3).map { _ in RecordingSubscriber<Int, Never>() }
        subject.subscribe(first)
        for recorder in later { subject.subscribe(recorder) }
        subject.send(1)
        subject.send(10)
        #expect(first.values == [1, 2, 3, 10])
        for recorder in later {
            #expect(recorder.values == [1, 2, 3, 10])
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func concurrentSendsNeverExceedLimitedDemand() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1_000))
        subject.subscribe(recorder)
        runConcurrently(threads: 8) { sender in
            for index in 0..<1_000 { subject.send(sender * 100_000 + index) }
        }
        #expect(recorder.values.count == 1_000)
        #expect(recorder.violations.isEmpty)
    }

    @Test func subscribeAndCancelRacingSendNeverBreakTheContract() {
        let subject = PassthroughSubject<Int, Never>()
        for _ in 0..<1_000 {
            let recorder = RecordingSubscriber<Int, Never>()
            runConcurrently(threads: 3) { index in
                switch index {
                case 0:
                    subject.subscribe(recorder)
                    recorder.cancel()
                default:
                    for value in 0..<20 { subject.send(index * 1_000 + value) }
                }
            }
            subject.send(-1)
            let values = recorder.values
            #expect(!values.contains(-1))
            for sender in 1...2 {
                let mine = values.filter { $0 / 1_000 == sender }
                #expect(mine == mine.sorted())
            }
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func sendSubscriptionRequestsUnlimitedAndSubscribeForwardsValuesAndCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        let upstream = ControllablePublisher<Int, Never>()
        let cancellable = upstream.subscribe(subject)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.unlimited])
        subscription.send(1)
        subscription.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
        _ = cancellable
    }

    @Test func cancellingTheSubscribeCancellableCancelsUpstreamAndStopsForwarding() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        let upstream = ControllablePublisher<Int, Never>()
        let cancellable = upstream.subscribe(subject)
        let subscription = upstream.subscriptions[0]
        cancellable.cancel()
        cancellable.cancel()
        #expect(subscription.cancelCount == 1)
        subscription.send(1)
        subscription.send(completion: .finished)
        #expect(recorder.events == [.subscription])
    }

    @Test func subscribingToASequenceRepublishesIt() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        let cancellable = [1, 2, 3].publisher.subscribe(subject)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        _ = cancellable
    }

    @Test func deinitializedSubjectCancelsItsUpstream() {
        let upstream = ControllablePublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            cancellable = upstream.subscribe(subject)
        }
        #expect(upstream.subscriptions[0].cancelCount == 1)
        _ = cancellable
    }

    @Test func describesItselfAsCombineDoes() throws {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        subject.subscribe(recorder)
        #expect(String(describing: subject) == "PassthroughSubject")
        let subscription = try #require(recorder.subscription)
        #expect(String(describing: subscription) == "PassthroughSubject")
        let children = Array(Mirror(reflecting: subscription).children)
        #expect(children.map(\.label) == ["parent", "downstream", "demand", "subject"], "Combine's children")
        #expect(children[2].value as? Subscribers.Demand == .max(2))
        #expect(String(describing: children[0].value).contains("PassthroughSubject"))
        #expect(String(describing: children[1].value).contains("RecordingSubscriber"))
        let willChange = RecordingSubscriber<Void, Never>(initialDemand: .none)
        let objectWillChange = ObservableObjectPublisher()
        objectWillChange.subscribe(willChange)
        let willChangeSubscription = try #require(willChange.subscription)
        #expect(String(describing: willChangeSubscription) == "ObservableObjectPublisher")
        #expect(Mirror(reflecting: willChangeSubscription).children.map(\.label) == ["downstream"])
        willChange.cancel()
        #expect(Mirror(reflecting: willChangeSubscription).children.map { String(describing: $0.value) } == ["nil"],
                "the subscriber is let go at the cancel")
    }

    @Test("after a cancel, a completion or a completion delivered by a sender, the mirror still shows the demand the subscription had, with no subject or subscriber, as Combine's")
    func mirrorKeepsTheLastDemand() throws {
        func labelled(_ subscription: any Subscription) -> [String: String] {
            Dictionary(uniqueKeysWithValues: Mirror(reflecting: subscription).children.map { ($0.label ?? "", String(describing: $0.value)) })
        }
        let subject = PassthroughSubject<Int, Never>()
        let cancelled = RecordingSubscriber<Int, Never>(initialDemand: .max(12))
        let completed = RecordingSubscriber<Int, Never>(initialDemand: .max(5))
        subject.subscribe(cancelled)
        subject.subscribe(completed)
        subject.send(1)
        let first = try #require(cancelled.subscription), second = try #require(completed.subscription)
        #expect(labelled(first)["demand"] == "max(11)")
        cancelled.cancel()
        first.request(.max(3))
        #expect(labelled(first) == ["parent": "nil", "downstream": "nil", "demand": "max(11)", "subject": "nil"])
        subject.send(completion: .finished)
        #expect(labelled(second) == ["parent": "nil", "downstream": "nil", "demand": "max(4)", "subject": "nil"])

        // A completion that its deliverer hands over (the subscriber was being sent a value).
        let other = PassthroughSubject<Int, Never>()
        let inside = RecordingSubscriber<Int, Never>(initialDemand: .max(7))
        inside.onValue { _ in
            other.send(completion: .finished)
            return .none
        }
        other.subscribe(inside)
        other.send(1)
        #expect(inside.completion == .finished)
        #expect(labelled(try #require(inside.subscription))["demand"] == "max(6)")
    }

    @Test(.exitTest) func requestingZeroDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            subject.subscribe(recorder)
            recorder.subscription?.request(.none)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("demand requested must be greater than zero (rule 2)"))
    }
}


@Suite("PassthroughSubject delivery fast path", .timeLimit(.minutes(12)))
struct PassthroughSubjectFastPathTests {
    @Test func cancelInsideReceiveReleasesTheSubscriberWhenThatReceiveReturns() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            recorder.onValue { [weak recorder] _ in
                recorder?.cancel()
                subject.send(99)
                return .none
            }
            subject.subscribe(recorder)
        }
        // Only the subject's subscription holds the recorder now.
        #expect(weakRecorder != nil)
        subject.send(1)
        #expect(weakRecorder == nil)
        subject.send(2)  // nothing left to deliver to
    }

    @Test func subscriberCancelledByAnEarlierSubscriberDuringTheSameSendGetsNothing() {
        let subject = PassthroughSubject<Int, Never>()
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        first.onValue { _ in
            second.cancel()
            return .none
        }
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(first.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(second.events == [.subscription])
    }

    /// A send claims up to four subscribers inline and more through a reused buffer: both
    /// paths deliver in subscription order, deliver a re-entrant send after the outer value,
    /// and skip a subscriber that an earlier one cancelled during the same send.
    @Test(arguments: [2, 4, 5, 8])
    func fanOutToAFewSubscribersAndToMany(count: Int) {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorders = (0..<count).map { _ in RecordingSubscriber<Int, Never>() }
        let last = recorders[count - 1]
        recorders[0].onValue { [weak last] value in
            if value == 1 { subject.send(2) }  // queued for every subscriber claimed for 1
            if value == 2 { last?.cancel() }   // before `last` was called for 1
            return .none
        }
        for recorder in recorders { subject.subscribe(recorder) }
        subject.send(1)
        subject.send(3)
        for recorder in recorders.dropLast() { #expect(recorder.values == [1, 2, 3], "\(count) subscribers") }
        #expect(last.values == [], "\(count) subscribers")
        #expect(recorders.allSatisfy { $0.violations.isEmpty })
    }

    @Test func completionSentInsideReceiveFollowsTheValueForEverySubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        first.onValue { _ in
            subject.send(completion: .finished)
            return .none
        }
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send(1)
        subject.send(2)
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        #expect(second.events == [.subscription, .value(1), .completion(.finished)])
        #expect(first.violations.isEmpty && second.violations.isEmpty)
    }
}
