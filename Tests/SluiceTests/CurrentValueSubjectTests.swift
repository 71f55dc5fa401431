import Dispatch
import Sluice
import SluiceTesting
import Testing

@Suite("CurrentValueSubject", .timeLimit(.minutes(12)))
struct CurrentValueSubjectTests {
    @Test func currentValueIsDeliveredWhenTheFirstDemandArrives() {
        let subject = CurrentValueSubject<Int, Never>(1)
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        #expect(recorder.values == [])
        subject.value = 2
        recorder.request(.max(1))
        #expect(recorder.values == [2])
        recorder.request(.max(1))
        #expect(recorder.values == [2])
        subject.send(3)
        #expect(recorder.values == [2, 3])
        #expect(recorder.violations.isEmpty)
    }

    /// Combine's `CurrentValueSubject` owes a subscriber whose demand ran out the value it
    /// missed: the next `request` delivers the value current then (once), not the ones between.
    @Test func aValueDroppedForWantOfDemandIsDeliveredByTheNextRequestAsTheLatest() {
        let subject = CurrentValueSubject<Int, Never>(0)
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.values == [0])
        recorder.request(.max(1))
        #expect(recorder.values == [0, 2])
        recorder.request(.max(1))
        #expect(recorder.values == [0, 2])
        subject.send(3)
        #expect(recorder.values == [0, 2, 3])
        #expect(recorder.violations.isEmpty)
    }

    /// As in Combine, only a `request` delivers the missed value: demand returned from
    /// `receive(_:)` waits for the next `send`.
    @Test func demandReturnedFromReceiveDoesNotDeliverAMissedValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        recorder.onValue { value in
            if value == 0 { subject.send(1) }  // no demand left: dropped
            return .max(1)
        }
        subject.subscribe(recorder)
        #expect(recorder.values == [0])
        subject.send(2)
        #expect(recorder.values == [0, 2])
        #expect(recorder.violations.isEmpty)
    }

    /// A `request` made while the subscriber is being called (here from inside its own
    /// `receive`) cannot deliver at once: the deliverer delivers the missed value when that
    /// `receive` returns, so the request is not lost.
    @Test func aRequestMadeDuringADeliveryGetsTheMissedValueWhenThatReceiveReturns() {
        let subject = CurrentValueSubject<Int, Never>(0)
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        recorder.onValue { [weak recorder] value in
            if value == 0 {
                subject.send(1)  // no demand left: dropped
                recorder?.request(.max(1))
            }
            return .none
        }
        subject.subscribe(recorder)
        #expect(recorder.values == [0, 1])
        #expect(recorder.violations.isEmpty)
    }

    /// The stall this fixes: a `for await` over `values` that runs behind the sends (each
    /// `next()` requests one value) waited forever for a value the subject had dropped.
    @Test func valuesYieldsTheLatestValueSentBetweenTwoNextCalls() async {
        let subject = CurrentValueSubject<Int, Never>(0)
        var iterator = subject.values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        subject.send(1)
        subject.send(2)
        #expect(await iterator.next() == 2)
        subject.send(completion: .finished)
        #expect(await iterator.next() == nil)
    }

    @Test func sinkReceivesTheCurrentValueThenEveryChange() {
        let subject = CurrentValueSubject<Int, Never>(0)
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        subject.value = 1
        subject.send(2)
        subject.value += 1
        #expect(recorder.values == [0, 1, 2, 3])
        #expect(subject.value == 3)
    }

    @Test func sendUpdatesTheValueUntilCompletionAndSettingItAfterwardsSendsNothing() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        subject.send(completion: .finished)
        subject.send(1)
        #expect(subject.value == 0)
        subject.value = 2
        #expect(subject.value == 2)
        #expect(recorder.events == [.subscription, .value(0), .completion(.finished)])
    }

    @Test func lateSubscriberReceivesTheCompletionAndNoValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        subject.send(completion: .finished)
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        #expect(recorder.events == [.subscription, .completion(.finished)])
    }

    @Test func reentrantSendInsideReceiveIsDeliveredAfterThatReceiveReturns() {
        let subject = CurrentValueSubject<Int, Never>(0)
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>()
        recorder.onValue { value in
            if value < 3 { subject.send(value + 1) }
            return .none
        }
        subject.subscribe(recorder)
        #expect(recorder.values == [0, 1, 2, 3])
        #expect(recorder.violations.isEmpty)
    }

    @Test func concurrentSendsAreSerialisedAndKeepEachSendersOrder() {
        let subject = CurrentValueSubject<Int, Never>(-1)
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        runConcurrently(threads: 8) { sender in
            for index in 0..<10_000 { subject.send(sender * 100_000 + index) }
        }
        let values = recorder.values
        #expect(values.count == 80_001)
        #expect(recorder.violations.isEmpty)
        for sender in 0..<8 {
            #expect(values.filter { $0 >= 0 && $0 / 100_000 == sender } == (0..<10_000).map { sender * 100_000 + $0 })
        }
    }

    /// A subscriber's first demand races `send`: the current value goes out with that demand,
    /// and a concurrent `send` must neither deliver it a second time nor deliver an older value
    /// after a newer one.
    @Test func firstDemandRacingSendDeliversEachValueOnceInIncreasingOrder() {
        for round in 0..<StressBudget.scaled(2_000) {
            let subject = CurrentValueSubject<Int, Never>(0)
            defer { subject.send(completion: .finished) }  // ends the round's subscriptions
            let recorders = (0..<3).map { _ in RecordingSubscriber<Int, Never>(initialDemand: .none) }
            for recorder in recorders { subject.subscribe(recorder) }
            let currentAtRequest = Locked([Int](repeating: 0, count: recorders.count))
            runConcurrently(threads: recorders.count + 1) { task in
                guard task > 0 else {
                    for value in 1...50 { subject.send(value) }
                    return
                }
                let recorder = recorders[task - 1]
                let current = subject.value
                currentAtRequest.withLock { $0[task - 1] = current }
                recorder.request(.max(1 + (round + task) % 4))
                recorder.request(.max(2))
            }
            for (index, recorder) in recorders.enumerated() {
                let values = recorder.values
                let current = currentAtRequest.withLock { $0[index] }
                #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "round \(round): \(values)")
                #expect(values.first.map { $0 >= current } ?? false, "round \(round): \(values), current \(current)")
                #expect(recorder.violations.isEmpty, "round \(round): \(recorder.violations)")
                // A value dropped for want of demand is owed: one more request gets the last.
                recorder.request(.max(1))
                #expect(recorder.values.last == 50, "round \(round): \(recorder.values)")
            }
        }
    }

    @Test func cancelReleasesTheSubscriberAndStopsDelivery() {
        let subject = CurrentValueSubject<Int, Never>(0)
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            subject.subscribe(recorder)
            recorder.cancel()
            recorder.cancel()
            subject.send(1)
            #expect(recorder.values == [0])
        }
        #expect(weakRecorder == nil)
    }

    @Test func deinitializedSubjectCancelsItsUpstreamAndSendSubscriptionRequestsUnlimitedAtOnce() {
        let upstream = ControllablePublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            cancellable = upstream.subscribe(subject)
            #expect(upstream.subscriptions[0].requests == [.unlimited])
            let sink = subject.sink { _ in }
            #expect(upstream.subscriptions[0].requests == [.unlimited])
            #expect(upstream.subscriptions[0].cancelCount == 0)
            sink.cancel()
        }
        #expect(upstream.subscriptions[0].cancelCount == 1)
        _ = cancellable
    }

    @Test func subjectsAndProducersOfSendableValuesAreSendable() {
        func sendable<T: Sendable>(_: T.Type) -> Bool { true }
        #expect(sendable(CurrentValueSubject<Int, Never>.self))
        #expect(sendable(PassthroughSubject<String, TestError>.self))
        #expect(sendable(Publishers.Emitting<Int, Never>.Emitter.self))
    }

    @Test func optionalSubjectStartingAtNilDeliversNilAsItsCurrentValue() throws {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int?, Never>()
        subject.subscribe(recorder)
        subject.send(1)
        #expect(recorder.values == [nil, 1])
        #expect(subject.value == 1)
        let subscription = try #require(recorder.subscription)
        #expect(String(describing: subscription) == "CurrentValueSubject")
    }

    @Test func describesItselfAsCombineDoes() throws {
        let subject = CurrentValueSubject<Int, Never>(0)
        defer { subject.send(completion: .finished) }  // ends the subscriptions: no recorder outlives the test
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        #expect(String(describing: subject) == "CurrentValueSubject")
        let subscription = try #require(recorder.subscription)
        #expect(String(describing: subscription) == "CurrentValueSubject")
    }
}
