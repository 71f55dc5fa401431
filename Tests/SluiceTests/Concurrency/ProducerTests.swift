import Sluice
import SluiceTesting
import Testing
import Dispatch

@Suite(.timeLimit(.minutes(12))) struct ProducerTests {
    @Test func sentValuesArriveInOrderAndReturningFinishes() async {
        let recorder = RecordingSubscriber<Int, TestError>()
        Producer<Int, TestError> { sender in
            for n in 0..<100 { await sender.send(n) }
        }.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == Array(0..<100))
        #expect(recorder.violations.isEmpty)
    }

    @Test func theBodyStartsAtTheFirstDemandOnly() async {
        let start = Tripwire()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Producer<Int, Never> { sender in
            start.hit()
            await sender.send(1)
        }.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        start.allow(1)
        recorder.request(.max(1))
        #expect(await recorder.waitForCompletion() == .finished)  // the body has returned
        #expect(recorder.values == [1])
        #expect(start.hits == 1)
        #expect(start.premature == 0, "the body started before the first demand")
    }

    @Test func sendSuspendsWhileDemandIsZero() async {
        // send(1) may return at once; send(2) only once the second demand came.
        let returned = Tripwire()
        returned.allow(1)
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        Producer<Int, Never> { sender in
            for n in 1...3 {
                await sender.send(n)
                returned.hit()
            }
        }.subscribe(recorder)
        await recorder.waitForValues(count: 1)
        #expect(recorder.values == [1])
        returned.allow(3)
        recorder.request(.max(2))
        #expect(await recorder.waitForCompletion() == .finished)  // the body has returned
        #expect(recorder.values == [1, 2, 3])
        #expect(returned.premature == 0, "send(2) returned before there was demand for it")
        #expect(recorder.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveIsCounted() async {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        Producer<Int, Never> { sender in
            for n in 0..<50 { await sender.send(n) }
        }.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == Array(0..<50))
        #expect(recorder.violations.isEmpty)
    }

    @Test func throwingFailsWithTheTypedError() async {
        let recorder = RecordingSubscriber<Int, TestError>()
        Producer<Int, TestError> { (sender) throws(TestError) in
            await sender.send(1)
            throw TestError(code: 3)
        }.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .failure(TestError(code: 3)))
        #expect(recorder.values == [1])
    }

    @Test func cancelWhileSendIsSuspendedMakesItReturnFalseAndCancelsTheTask() async {
        let ended = Gate()
        let outcome = Locked<(sent: Bool, taskCancelled: Bool)?>(nil)
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        Producer<Int, Never> { sender in
            await sender.send(1)
            let sent = await sender.send(2)
            outcome.withLock { $0 = (sent, Task.isCancelled) }
            ended.open()
        }.subscribe(recorder)
        await recorder.waitForValues(count: 1)
        recorder.cancel()
        await ended.wait()
        #expect(outcome.withLock { $0 }! == (false, true))
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func cancelDuringDeliveryDropsLaterValuesAndTheCompletion() async {
        let ended = Gate()
        let results = Locked<[Bool]>([])
        let recorder = RecordingSubscriber<Int, Never>()
        recorder.onValue { [weak recorder] _ in recorder?.cancel(); return .none }
        Producer<Int, Never> { sender in
            for n in 1...3 { let sent = await sender.send(n); results.withLock { $0.append(sent) } }
            ended.open()
        }.subscribe(recorder)
        await ended.wait()
        #expect(results.withLock { $0 } == [true, false, false])
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func cancelBeforeTheFirstDemandNeverRunsTheBody() async {
        let started = Tripwire()
        let bodyReleased = Gate()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        do {
            let probe = DeinitProbe(bodyReleased)
            Producer<Int, Never> { _ in
                _ = probe
                started.hit()
            }.subscribe(recorder)
        }
        recorder.cancel()
        recorder.request(.max(1))
        await bodyReleased.wait()  // nothing holds the body any more: it can never run now
        #expect(started.hits == 0)
        #expect(recorder.events == [.subscription])
    }

    @Test func requestThenCancelInsideReceiveSubscriptionNeverRunsTheBody() async {
        let started = Tripwire()
        let bodyReleased = Gate()
        let values = Locked(0)
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)); $0.cancel() },
            receiveValue: { _ in values.withLock { $0 += 1 }; return .none })
        do {
            let probe = DeinitProbe(bodyReleased)
            Producer<Int, Never> { sender in
                _ = probe
                started.hit()
                await sender.send(1)
            }.subscribe(subscriber)
        }
        await bodyReleased.wait()  // nothing holds the body any more: it can never run now
        #expect(started.hits == 0)
        #expect(values.withLock { $0 } == 0)
    }

    @Test func cancelAfterCompletionChangesNothing() async {
        let recorder = RecordingSubscriber<Int, Never>()
        Producer<Int, Never> { sender in await sender.send(1) }.subscribe(recorder)
        await recorder.waitForCompletion()
        recorder.cancel()
        recorder.cancel()
        #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func eachSubscriberGetsItsOwnRun() async {
        let runs = Locked(0)
        let producer = Producer<Int, Never> { sender in
            let run = runs.withLock { $0 += 1; return $0 }
            await sender.send(run)
        }
        let first = RecordingSubscriber<Int, Never>()
        producer.subscribe(first)
        await first.waitForCompletion()
        let second = RecordingSubscriber<Int, Never>()
        producer.subscribe(second)
        await second.waitForCompletion()
        #expect(first.values == [1])
        #expect(second.values == [2])
    }

    @Test func cancelReleasesTheSubscriber() async {
        let released = Gate()
        let hold = Gate()
        let values = Locked<[Int]>([])
        weak var weakSubscription: AnyObject?
        do {
            let probe = DeinitProbe(released)
            let subscriber = AnySubscriber<Int, Never>(
                receiveSubscription: { weakSubscription = $0 as AnyObject; $0.request(.max(1)) },
                receiveValue: { value in _ = probe; values.withLock { $0.append(value) }; return .none })
            Producer<Int, Never> { sender in
                await sender.send(1)
                await sender.send(2)   // suspends: no demand
                await hold.waitIgnoringCancellation(for: "the test to let the body end")
            }.subscribe(subscriber)
        }
        (weakSubscription as? any Subscription)?.cancel()
        hold.open()
        #expect(await released.wait(for: "the producer to release the cancelled subscriber"))
        #expect(values.withLock { $0 }.allSatisfy { $0 == 1 }, "a value beyond the demand of 1 arrived")
    }

    @Test("cancel racing a request and the delivery: within demand, at most one value in flight once cancel returns, no completion, checked after the body ended")
    func cancelRacingRequestAndDeliveryNeverExceedsDemand() async {
        // The shared race, with a body that sends what `next` gives and throws the
        // CancellationError a refused send stands for, which must not arrive.
        await raceCancelAgainstRequestAndDelivery { next in
            Producer<Int, any Error> { sender in
                var call = 0
                while let value = try await next(call) {
                    guard await sender.send(value) else { throw CancellationError() }
                    call += 1
                }
            }
        }
    }

    @Test func subscriptionDescribesItselfAsProducer() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Producer<Int, Never> { _ in }.subscribe(recorder)
        #expect(String(describing: recorder.subscription!) == "Producer")
        recorder.cancel()
    }
}

@Suite(.timeLimit(.minutes(12))) struct AsyncFutureTests {
    @Test func publishesTheResultThenFinishesAndCallsOnlyOnDemand() async {
        let calls = Tripwire()
        let future = AsyncFuture<Int, Never> { calls.hit(); return 42 }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        future.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        calls.allow(1)
        recorder.request(.max(1))
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == [42])
        #expect(calls.hits == 1)
        #expect(calls.premature == 0, "the closure ran before the first demand")
    }

    @Test func aThrownErrorFailsTheSubscription() async {
        let recorder = RecordingSubscriber<Int, TestError>()
        AsyncFuture<Int, TestError> { () throws(TestError) in throw TestError(code: 1) }.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .failure(TestError(code: 1)))
        #expect(recorder.values.isEmpty)
    }

    @Test func cancelCancelsTheRunningCall() async {
        let started = Gate()
        let ended = Gate()
        let sawCancellation = Locked(false)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let recorder = RecordingSubscriber<Int, Never>()
        AsyncFuture<Int, Never> {
            started.open()
            for await _ in stream {}   // ends when the task is cancelled
            sawCancellation.withLock { $0 = Task.isCancelled }
            ended.open()
            return 1
        }.subscribe(recorder)
        await started.wait()
        recorder.cancel()
        await ended.wait()
        continuation.finish()
        #expect(sawCancellation.withLock { $0 })
        #expect(recorder.events == [.subscription])
    }

    @Test("cancel racing the delivery: value and .finished or nothing, at most one signal in flight once cancel returns, never a failure")
    func cancelRacingDelivery() async {
        for iteration in 0..<StressBudget.scaled(10_000) {
            let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .max(1))
            let released = Gate()
            let go = Gate()
            // The call waits for `go`, which opens in the race with the cancel. Every other
            // iteration, a call that sees the cancel throws the CancellationError it
            // provoked, which must not arrive; the others return 1 regardless.
            let checksCancellation = iteration.isMultiple(of: 2)
            AsyncFuture<Int, any Error> {
                await go.waitIgnoringCancellation(for: "the race to open the gate")
                if checksCancellation { try Task.checkCancellation() }
                return 1
            }.subscribe(ProbedSubscriber(recorder, released: released))
            let seenAtCancel = Locked(0)
            runConcurrently(threads: 2) { index in
                if index == 0 {
                    go.open()
                } else {
                    recorder.cancel()
                    seenAtCancel.withLock { $0 = recorder.events.count }
                }
            }
            await released.wait()   // the call's task ended
            let afterCancel = recorder.events.count - seenAtCancel.withLock { $0 }
            #expect(afterCancel <= 1, "\(afterCancel) signals after cancel returned")
            #expect(recorder.values.count <= 1)
            switch recorder.completion {
            case nil: break
            case .finished?: #expect(recorder.values == [1], "finished without the value")
            case .failure(let error)?: Issue.record("delivered \(error)")
            }
            #expect(recorder.violations.isEmpty)
        }
    }
}
