import Sluice
import SluiceTesting
import Testing

@Suite(.timeLimit(.minutes(12))) struct AsyncSequencePublisherTests {
    @Test func unlimitedDemandDeliversEveryElementInOrderThenFinished() async {
        let recorder = RecordingSubscriber<Int, TestError>()
        CountingSequence(count: 100).publisher.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == Array(0..<100))
        #expect(recorder.violations.isEmpty)
    }

    @Test func nothingIsIteratedBeforeTheFirstDemand() async {
        let sequence = CountingSequence(count: 3)
        sequence.tripwire.allow(0)
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
        sequence.publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        sequence.tripwire.allow(1)
        recorder.request(.max(1))
        await recorder.waitForValues(count: 1)
        #expect(recorder.values == [0])
        recorder.cancel()
        await sequence.released.wait()  // the iterator is gone: no call can come any more
        #expect(sequence.tripwire.premature == 0, "next() was called before the first demand")
        #expect(sequence.calls == 1)
    }

    @Test func nextIsNeverCalledMoreOftenThanDemanded() async {
        let sequence = CountingSequence(count: 10)
        sequence.tripwire.allow(2)
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(2))
        recorder.onValue { value in
            // At the moment value n arrives, exactly n + 1 `next()` calls were made.
            #expect(sequence.calls == value + 1)
            return .none
        }
        sequence.publisher.subscribe(recorder)
        await recorder.waitForValues(count: 2)
        sequence.tripwire.allow(5)
        recorder.request(.max(3))
        await recorder.waitForValues(count: 5)
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
        await sequence.released.wait()  // the iterator is gone: the count is final
        #expect(sequence.tripwire.premature == 0, "next() was called beyond the demand")
        #expect(sequence.calls == 5)
    }

    @Test func demandReturnedFromReceiveIsCounted() async {
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(1))
        CountingSequence(count: 50).publisher.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == Array(0..<50))
        #expect(recorder.violations.isEmpty)
    }

    @Test func theSequencesTypedFailureIsDelivered() async {
        let recorder = RecordingSubscriber<Int, TestError>()
        CountingSequence(count: 2, failure: TestError(code: 7)).publisher.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .failure(TestError(code: 7)))
        #expect(recorder.values == [0, 1])
    }

    @Test func cancelWhileSuspendedInNextCancelsTheTaskAndDeliversNothing() async {
        // The second next() says when it is suspended, and waits for the task's cancellation. (An
        // AsyncStream here could not say so: cancelled before it reached next(), the task ends
        // without calling it, and the stream never learns of the cancel.)
        let suspended = Gate()
        let sawCancel = Gate()
        let released = Gate()
        let recorder = RecordingSubscriber<Int, any Error>()
        ClosureSequence<Int> { call in
            guard call > 0 else { return 1 }
            suspended.open()
            _ = await Gate().waitUnlessCancelled()  // a gate nobody opens: only the cancel ends the wait
            sawCancel.open()
            return 2
        }.publisher.subscribe(ProbedSubscriber(recorder, released: released))
        await suspended.wait()
        recorder.cancel()
        await sawCancel.wait()   // cooperative cancellation reached the sequence
        await released.wait()    // the task has ended: nothing can arrive later
        #expect(recorder.values == [1])
        #expect(!recorder.hasCompleted)
    }

    @Test func cancelInsideReceiveStopsIterationAndReleasesTheIterator() async {
        let sequence = CountingSequence(count: 10)
        let recorder = RecordingSubscriber<Int, TestError>()
        recorder.onValue { [weak recorder] _ in recorder?.cancel(); return .none }
        sequence.publisher.subscribe(recorder)
        await sequence.released.wait()
        #expect(recorder.events == [.subscription, .value(0)])
        #expect(sequence.calls == 1)
    }

    @Test func cancelBeforeTheFirstDemandNeverStartsIteration() async {
        let sequence = CountingSequence(count: 3)
        weak var weakSubscription: AnyObject?
        var values = 0
        sequence.publisher.subscribe(AnySubscriber<Int, TestError>(
            receiveSubscription: { weakSubscription = $0 as AnyObject },
            receiveValue: { _ in values += 1; return .none }))
        let subscription = weakSubscription as? any Subscription
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(1))
        _ = consume subscription
        // A task of the subscription would hold it: once it is gone, no task runs.
        while weakSubscription != nil { await Task.yield() }
        #expect(sequence.calls == 0)
        #expect(values == 0)
    }

    @Test func requestThenCancelInsideReceiveSubscriptionNeverIterates() async {
        let sequence = CountingSequence(count: 3)
        weak var weakSubscription: AnyObject?
        sequence.publisher.subscribe(AnySubscriber<Int, TestError>(receiveSubscription: {
            weakSubscription = $0 as AnyObject
            $0.request(.unlimited)
            $0.cancel()
        }))
        // A task of the subscription would hold it: once it is gone, no task runs.
        while weakSubscription != nil { await Task.yield() }
        #expect(sequence.calls == 0)
    }

    @Test func cancelReleasesTheSubscriber() async {
        let released = Gate()
        let values = Locked<[Int]>([])
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        weak var weakSubscription: AnyObject?
        do {
            let probe = DeinitProbe(released)
            let subscriber = AnySubscriber<Int, Never>(
                receiveSubscription: { weakSubscription = $0 as AnyObject; $0.request(.unlimited) },
                receiveValue: { value in _ = probe; values.withLock { $0.append(value) }; return .none })
            stream.publisher.subscribe(subscriber)
        }
        continuation.yield(1)
        (weakSubscription as? any Subscription)?.cancel()
        continuation.yield(2)
        #expect(await released.wait(for: "the publisher to release the cancelled subscriber"))
        continuation.finish()
        #expect(!values.withLock { $0 }.contains(2), "a value sent after the cancel arrived")
    }

    @Test func completionReleasesTheSubscriber() async {
        let released = Gate()
        let signals = Locked<[String]>([])
        do {
            let probe = DeinitProbe(released)
            let subscriber = AnySubscriber<Int, TestError>(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: { value in _ = probe; signals.withLock { $0.append("\(value)") }; return .none },
                receiveCompletion: { completion in signals.withLock { $0.append("\(completion)") } })
            CountingSequence(count: 3).publisher.subscribe(subscriber)
        }
        #expect(await released.wait(for: "the publisher to release the subscriber after the completion"))
        #expect(signals.withLock { $0 } == ["0", "1", "2", "finished"])
    }

    @Test func iterationRunsOnTheGivenActor() async {
        let recorder = RecordingSubscriber<Int, TestError>()
        recorder.onValue { _ in MainActor.assertIsolated("delivery off the main actor"); return .none }
        CountingSequence(count: 5).publisher(priority: .high, iteratingOn: MainActor.shared).subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values.count == 5)
    }

    /// The priority `next()` runs at when `sequence` is published with `priority`, on `actor`.
    private func priorityOfIteration(_ priority: TaskPriority, on actor: (any Actor)?) async -> TaskPriority? {
        let seen = Locked<TaskPriority?>(nil)
        let sequence = ClosureSequence<Int> { call in
            if call == 0 { seen.withLock { $0 = Task.currentPriority } }
            return call == 0 ? 0 : nil
        }
        let recorder = RecordingSubscriber<Int, any Error>()
        sequence.publisher(priority: priority, iteratingOn: actor).subscribe(recorder)
        await recorder.waitForCompletion()
        return seen.withLock { $0 }
    }

    @Test("publisher(priority:) runs the sequence's next() at that priority, with and without an actor")
    func iterationRunsAtTheGivenPriority() async {
        // Both differ from the test's own priority, which an ignored argument would inherit.
        #expect(await priorityOfIteration(.low, on: nil) == .low)
        #expect(await priorityOfIteration(.high, on: nil) == .high)
        #expect(await priorityOfIteration(.low, on: PriorityProbeActor()) == .low)
        #expect(await priorityOfIteration(.high, on: PriorityProbeActor()) == .high)
    }

    @Test func subscriptionDescribesItselfAsAsyncSequence() {
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
        CountingSequence(count: 1).publisher.subscribe(recorder)
        #expect(String(describing: recorder.subscription!) == "AsyncSequence")
        recorder.cancel()
    }

    @Test("cancel racing a request and the delivery: within demand, at most one value in flight once cancel returns, no completion, checked after the task ended")
    func cancelRacingRequestNeverExceedsDemandOrSignalsAfterCancel() async {
        await raceCancelAgainstRequestAndDelivery { body in ClosureSequence(body: body).publisher }
    }

    @Test(.exitTest) func requestNoneTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
            CountingSequence(count: 1).publisher.subscribe(recorder)
            recorder.subscription!.request(.none)
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("demand requested must be greater than zero (rule 2)"))
        }
    }
}

/// An actor with nothing to do but host a published sequence's iteration.
private actor PriorityProbeActor {}
