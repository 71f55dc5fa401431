import Foundation
import Sluice
import SluiceTesting
import Testing

private struct Oops: Error, Equatable {}

/// A recorder subscribed to a fresh controllable publisher, and that publisher's subscription.
private func subscribedRecorder(
    initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none
) -> (RecordingSubscriber<Int, Oops>, ControllableSubscription<Int, Oops>) {
    let publisher = ControllablePublisher<Int, Oops>()
    let recorder = RecordingSubscriber<Int, Oops>(initialDemand: initialDemand, demandPerValue: demandPerValue)
    publisher.subscribe(recorder)
    return (recorder, publisher.subscriptions[0])
}

@Suite("RecordingSubscriber: recording and demand", .timeLimit(.minutes(12)))
struct RecordingSubscriberDemandTests {
    @Test("Signals are recorded in the order they arrive")
    func recordsSignalsInOrder() {
        let recorder = RecordingSubscriber<Int, Never>()
        recorder.receive(subscription: Subscriptions.empty)
        _ = recorder.receive(1)
        recorder.receive(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
        #expect(recorder.values == [1])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("By default the recorder requests unlimited demand once, on subscription")
    func defaultInitialDemandIsUnlimited() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        #expect(subscription.history == [.request(.unlimited)])
        #expect(recorder.outstandingDemand == .unlimited)
    }

    @Test("An initial demand of .max(n) is requested on subscription and used up by values")
    func initialDemandIsRequestedAndUsedUp() {
        let (recorder, subscription) = subscribedRecorder(initialDemand: .max(2))
        defer { subscription.detach() }
        #expect(subscription.requests == [.max(2)])
        #expect(recorder.outstandingDemand == .max(2))
        subscription.send(1)
        #expect(recorder.outstandingDemand == .max(1))
        subscription.send(2)
        #expect(recorder.outstandingDemand == .none)
        #expect(recorder.violations.isEmpty)
    }

    @Test("An initial demand of .none requests nothing on subscription")
    func noInitialDemandRequestsNothing() {
        let (recorder, subscription) = subscribedRecorder(initialDemand: .none)
        defer { subscription.detach() }
        #expect(subscription.history.isEmpty)
        #expect(recorder.outstandingDemand == .none)
        #expect(recorder.events == [.subscription])
    }

    @Test("request(_:) forwards the demand to the subscription and adds it to the outstanding demand")
    func requestForwardsAndAccumulates() {
        let (recorder, subscription) = subscribedRecorder(initialDemand: .none)
        defer { subscription.detach() }
        recorder.request(.max(1))
        recorder.request(.max(2))
        #expect(subscription.requests == [.max(1), .max(2)])
        #expect(recorder.outstandingDemand == .max(3))
        recorder.request(.unlimited)
        #expect(recorder.outstandingDemand == .unlimited)
    }

    @Test("request(_:) before the subscription arrives does nothing")
    func requestBeforeSubscriptionDoesNothing() {
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        recorder.request(.max(5))
        #expect(recorder.outstandingDemand == .none)
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        publisher.subscribe(recorder)
        #expect(publisher.subscriptions[0].history.isEmpty)
    }

    @Test("demandPerValue given at init is returned from each receive(_:) and counted as outstanding")
    func demandPerValueFromInitIsReturned() {
        let (recorder, subscription) = subscribedRecorder(initialDemand: .max(1), demandPerValue: .max(2))
        defer { subscription.detach() }
        #expect(subscription.send(1) == .max(2))
        #expect(recorder.outstandingDemand == .max(2))
        #expect(subscription.requests == [.max(1)])
    }

    @Test("Setting demandPerValue changes what later values return")
    func demandPerValueCanChange() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        #expect(recorder.demandPerValue == .none)
        #expect(subscription.send(1) == .none)
        recorder.demandPerValue = .max(3)
        #expect(recorder.demandPerValue == .max(3))
        #expect(subscription.send(2) == .max(3))
    }

    @Test("onValue runs inside receive(_:) with the value and its result replaces demandPerValue")
    func onValueReplacesDemandPerValue() {
        let (recorder, subscription) = subscribedRecorder(initialDemand: .max(1), demandPerValue: .max(7))
        defer { subscription.detach() }
        let seen = Locked<[Int]>([])
        recorder.onValue { value in
            seen.withLock { $0.append(value) }
            return .max(value)
        }
        #expect(subscription.send(4) == .max(4))
        #expect(seen.withLock { $0 } == [4])
        #expect(recorder.outstandingDemand == .max(4))
    }

    @Test("onValue can request re-entrantly: the request reaches the subscription during the value")
    func onValueCanRequestReentrantly() {
        let (recorder, subscription) = subscribedRecorder(initialDemand: .max(1))
        defer { subscription.detach() }
        recorder.onValue { [unowned recorder] _ in
            recorder.request(.max(5))
            return .none
        }
        subscription.send(1)
        #expect(subscription.requests == [.max(1), .max(5)])
        #expect(recorder.outstandingDemand == .max(5))
        #expect(recorder.violations.isEmpty)
    }

    @Test("cancel() forwards every call to the subscription, so idempotence can be tested")
    func cancelForwardsEachCall() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        recorder.cancel()
        recorder.cancel()
        #expect(subscription.history == [.request(.unlimited), .cancel, .cancel])
        #expect(recorder.subscription != nil)
    }

    @Test("cancel() before the subscription arrives does nothing")
    func cancelBeforeSubscriptionDoesNothing() {
        let recorder = RecordingSubscriber<Int, Oops>()
        recorder.cancel()
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        publisher.subscribe(recorder)
        #expect(publisher.subscriptions[0].history == [.request(.unlimited)])
    }

    @Test("subscription is nil until one arrives, then the one received")
    func subscriptionIsExposed() {
        let recorder = RecordingSubscriber<Int, Oops>()
        #expect(recorder.subscription == nil)
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        publisher.subscribe(recorder)
        #expect(recorder.subscription as? ControllableSubscription<Int, Oops> === publisher.subscriptions[0])
        #expect(recorder.description == "RecordingSubscriber")
    }

    @Test("A failure completion is recorded with its error")
    func recordsAFailure() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        subscription.send(completion: .failure(Oops()))
        #expect(recorder.completion == .failure(Oops()))
        #expect(recorder.events == [.subscription, .completion(.failure(Oops()))])
    }
}

@Suite("RecordingSubscriber: contract violations it records", .timeLimit(.minutes(12)))
struct RecordingSubscriberViolationTests {
    @Test("A value beyond the demand is recorded as a rule 2 violation")
    func flagsAValueBeyondDemand() {
        let (recorder, subscription) = subscribedRecorder(initialDemand: .max(1))
        defer { subscription.detach() }
        subscription.send(1)
        #expect(recorder.violations.isEmpty)
        subscription.send(2)
        #expect(recorder.violations == ["received a value beyond demand (rule 2)"])
        #expect(recorder.values == [1, 2])
    }

    @Test("Demand returned from receive(_:) counts: a value within it is not a violation")
    func returnedDemandCounts() {
        let (recorder, subscription) = subscribedRecorder(initialDemand: .max(1), demandPerValue: .max(1))
        defer { subscription.detach() }
        for value in 1...5 { subscription.send(value) }
        #expect(recorder.violations.isEmpty)
        recorder.demandPerValue = .none
        subscription.send(6)
        subscription.send(7)
        #expect(recorder.violations == ["received a value beyond demand (rule 2)"])
    }

    @Test("A second subscription is recorded as a rule 1 violation and not requested from")
    func flagsASecondSubscription() {
        let first = ControllablePublisher<Int, Oops>()
        defer { first.detachAll() }
        let second = ControllablePublisher<Int, Oops>()
        defer { second.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .max(1))
        first.subscribe(recorder)
        second.subscribe(recorder)
        #expect(recorder.violations == ["received a second subscription (rule 1)"])
        #expect(second.subscriptions[0].history.isEmpty)
        #expect(recorder.subscription as? ControllableSubscription<Int, Oops> === first.subscriptions[0])
        #expect(recorder.events == [.subscription])
    }

    @Test("A value after the completion is recorded as a rule 4 violation")
    func flagsAValueAfterCompletion() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        subscription.send(completion: .finished)
        #expect(recorder.violations.isEmpty)
        subscription.send(1)
        #expect(recorder.violations == ["received a value after completion (rule 4)"])
    }

    @Test("A second completion is recorded as a rule 4 violation")
    func flagsASecondCompletion() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        subscription.send(completion: .finished)
        subscription.send(completion: .failure(Oops()))
        #expect(recorder.violations == ["received a second completion (rule 4)"])
        #expect(recorder.completion == .finished)
    }

    @Test("A value or a completion before the subscription is recorded as a rule 1 violation")
    func flagsSignalsBeforeTheSubscription() {
        let recorder = RecordingSubscriber<Int, Oops>()
        _ = recorder.receive(1)
        recorder.receive(completion: .finished)
        #expect(recorder.violations.contains("received a value before its subscription (rule 1)"))
        #expect(recorder.violations.contains("received a completion before its subscription (rule 1)"))
    }

    @Test("A value arriving on the same thread after cancel() returned is recorded as a rule 4 violation")
    func flagsAValueAfterCancel() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        subscription.send(1)
        recorder.cancel()
        #expect(recorder.violations.isEmpty)
        subscription.send(2)
        #expect(recorder.violations == ["received a value after its cancel returned (rule 4)"])
        #expect(recorder.values == [1, 2])
    }

    @Test("A value after a cancel made inside receive(_:) is recorded as a rule 4 violation, whatever the thread")
    func flagsAValueAfterACancelInsideReceive() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        recorder.onValue { [weak recorder] _ in
            recorder?.cancel()
            return .none
        }
        subscription.send(1)
        #expect(recorder.violations.isEmpty)
        onAnotherThread { _ = recorder.receive(2) }  // as a publisher delivering there
        #expect(recorder.violations == ["received a value after its cancel returned (rule 4)"])
    }

    @Test("After a cancel from another thread, one value already in flight is tolerated; a second is a violation")
    func toleratesOneInFlightValueAfterACancelElsewhere() {
        let (recorder, recorderLink) = subscribedRecorder()
        defer { recorderLink.detach() }
        recorder.cancel()
        onAnotherThread { _ = recorder.receive(1) }  // as a publisher delivering there
        #expect(recorder.violations.isEmpty)
        onAnotherThread { _ = recorder.receive(2) }  // as a publisher delivering there
        #expect(recorder.violations == ["received a value after its cancel returned (rule 4)"])
    }

    @Test("A completion after a cancel on the same thread is recorded as a rule 4 violation")
    func flagsACompletionAfterACancel() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        recorder.cancel()
        subscription.send(completion: .finished)
        #expect(recorder.violations == ["received a completion after its cancel returned (rule 4)"])
    }

    @Test("After a cancel from another thread, one emission in flight (a value, then the completion there) is tolerated")
    func toleratesOneInFlightEmissionAfterACancelElsewhere() {
        let (recorder, recorderLink) = subscribedRecorder()
        defer { recorderLink.detach() }
        recorder.cancel()
        onAnotherThread { recorder.receive(completion: .finished) }  // as a publisher finishing there
        #expect(recorder.violations.isEmpty)

        let (second, secondLink) = subscribedRecorder()
        defer { secondLink.detach() }
        second.cancel()
        onAnotherThread {  // as `Just` sends its value and `.finished`
            _ = second.receive(1)
            second.receive(completion: .finished)
        }
        #expect(second.violations.isEmpty)
    }

    @Test("After a cancel, a completion on another thread than the value in flight is a rule 4 violation")
    func flagsACompletionFromAnotherEmission() {
        let (recorder, recorderLink) = subscribedRecorder()
        defer { recorderLink.detach() }
        recorder.cancel()
        let valueIn = DispatchSemaphore(value: 0)
        runConcurrently(threads: 2) { thread in  // two live threads: two thread identities
            if thread == 0 {
                _ = recorder.receive(1)
                valueIn.signal()
            } else {
                let valueCameIn = valueIn.wait(timeout: .now() + 120) == .success
                #expect(valueCameIn, "the value's thread never signalled")
                recorder.receive(completion: .finished)
            }
        }
        #expect(recorder.violations == ["received a completion after its cancel returned (rule 4)"])
    }

    @Test("A signal arriving while another is still in progress is recorded as a rule 3 violation")
    func flagsOverlappingSignals() {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        recorder.onValue { [unowned recorder] value in
            // A publisher that delivers the next value before receive(_:) returned.
            if value == 1 { _ = recorder.receive(2) }
            return .none
        }
        subscription.send(1)
        #expect(recorder.violations == ["received overlapping signals (rule 3)"])
        #expect(recorder.values == [1, 2])
    }
}

@Suite("RecordingSubscriber: awaiting events", .timeLimit(.minutes(12)))
struct RecordingSubscriberWaitTests {
    @Test("wait(until:) returns at once when the events already satisfy the predicate")
    func waitReturnsAtOnceWhenSatisfied() async {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        subscription.send(1)
        await recorder.wait { $0.count == 2 }
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test("wait(until:) suspends until a value sent from elsewhere satisfies the predicate")
    func waitResumesWhenAValueArrives() async {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        let (evaluated, evaluation) = AsyncStream.makeStream(of: Int.self)
        async let seenOnResume: [Int] = {
            await recorder.wait { events in
                evaluation.yield(events.count)
                return events.contains(.value(3))
            }
            return recorder.values
        }()
        // The first evaluation failed: the waiter is registered before anything is sent.
        var evaluations = evaluated.makeAsyncIterator()
        #expect(await evaluations.next() == 1)
        subscription.send(1)
        subscription.send(2)
        subscription.send(3)
        #expect(await seenOnResume == [1, 2, 3])
    }

    @Test("wait(until:) predicates may read the recorder: they run outside its lock")
    func predicateMayReadTheRecorder() async {
        let (recorder, subscription) = subscribedRecorder()
        defer { subscription.detach() }
        subscription.send(1)
        // Reading the recorder inside the predicate deadlocked while predicates ran under the
        // event log's lock.
        await recorder.wait { _ in recorder.values == [1] }
        let (evaluated, evaluation) = AsyncStream.makeStream(of: Void.self)
        async let waited: Void = recorder.wait { _ in
            evaluation.yield()
            return recorder.completion != nil
        }
        var evaluations = evaluated.makeAsyncIterator()
        await evaluations.next()
        subscription.send(completion: .finished)
        await waited
        #expect(recorder.completion == .finished)
    }

    @Test("waitForValues returns once that many values have arrived, also when they are sent from another task")
    func waitForValuesCountsValues() async {
        let (recorder, subscription) = subscribedRecorder()
        subscription.send(1)
        await recorder.waitForValues(count: 1)
        await recorder.waitForValues(count: 0)
        let sender = Task {
            defer { subscription.detach() }
            for value in 2...4 {
                await Task.yield()
                subscription.send(value)
            }
        }
        await recorder.waitForValues(count: 4)
        #expect(recorder.values == [1, 2, 3, 4])
        await sender.value
    }

    @Test("waitForCompletion returns the completion, at once if it already arrived")
    func waitForCompletionReturnsIt() async {
        let (recorder, subscription) = subscribedRecorder()
        let sender = Task {
            defer { subscription.detach() }
            await Task.yield()
            subscription.send(completion: .failure(Oops()))
        }
        #expect(await recorder.waitForCompletion() == .failure(Oops()))
        #expect(await recorder.waitForCompletion() == .failure(Oops()))
        await sender.value
    }

    @Test("A wait ends when the awaiting task is cancelled, instead of hanging; waitForCompletion then returns nil")
    func waitsEndOnCancellation() async {
        let (recorder, recorderLink) = subscribedRecorder()
        defer { recorderLink.detach() }
        // Cancelled before the waits start: each sees the cancellation when registering.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await recorder.waitForValues(count: 1)
            await recorder.wait { _ in false }
            return await recorder.waitForCompletion()
        }
        #expect(await early.value == nil)
        // Cancelled while suspended: the cancellation handler resumes the waiter.
        let (evaluated, evaluation) = AsyncStream.makeStream(of: Void.self)
        let suspended = Task {
            await recorder.wait { _ in
                evaluation.yield()
                return false
            }
            return recorder.events.count
        }
        var evaluations = evaluated.makeAsyncIterator()
        await evaluations.next()
        suspended.cancel()
        #expect(await suspended.value == 1)
        #expect(recorder.completion == nil)
    }
}

/// Runs `body` on a new thread (never the caller's) and returns when it is done.
private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    let finished = done.wait(timeout: .now() + 120) == .success
    #expect(finished, "the body on another thread did not return within 120 s")
}
