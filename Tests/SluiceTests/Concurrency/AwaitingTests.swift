import Sluice
import SluiceTesting
import Testing

/// The publisher's first subscription, once there is one; fails the test if it is cancelled first.
private func firstSubscription<O, F>(of publisher: ControllablePublisher<O, F>) async throws -> ControllableSubscription<O, F> {
    try #require(await publisher.firstSubscription(), "nobody subscribed before the test was cancelled")
}

@Suite(.timeLimit(.minutes(12))) struct AwaitingTests {
    @Test func firstValueRequestsOneAndCancelsAfterIt() async throws {
        let publisher = ControllablePublisher<Int, TestError>()
        let shared = UncheckedBox(publisher)
        let task = Task { try await shared.value.firstValue() }
        let subscription = try await firstSubscription(of: publisher)
        await subscription.waitForCalls { !$0.isEmpty }
        #expect(subscription.send(7) == .none)
        #expect(try await task.value == 7)
        #expect(subscription.history == [.request(.max(1)), .cancel])
    }

    @Test func firstValueOfAnEmptyPublisherIsNil() async throws {
        let value = try await Producer<Int, TestError> { _ in }.firstValue()
        #expect(value == nil)
    }

    @Test func firstValueThrowsTheTypedFailure() async {
        await #expect(throws: TestError(code: 2)) {
            try await Producer<Int, TestError> { (_) throws(TestError) in throw TestError(code: 2) }.firstValue()
        }
    }

    @Test func lastValueRequestsUnlimitedAndReturnsTheLastBeforeFinishing() async throws {
        let publisher = ControllablePublisher<Int, TestError>()
        let shared = UncheckedBox(publisher)
        let task = Task { try await shared.value.lastValue() }
        let subscription = try await firstSubscription(of: publisher)
        await subscription.waitForCalls { !$0.isEmpty }
        for n in 1...3 { subscription.send(n) }
        subscription.send(completion: .finished)
        #expect(try await task.value == 3)
        #expect(subscription.history == [.request(.unlimited)])
    }

    @Test func onlyValueReturnsTheSingleValue() async throws {
        let value = try await Producer<Int, Never> { sender in await sender.send(5) }.onlyValue()
        #expect(value == 5)
    }

    @Test func onlyValueFailsAtASecondValueAndCancels() async throws {
        let publisher = ControllablePublisher<Int, Never>()
        let shared = UncheckedBox(publisher)
        let task = Task { () async -> OnlyValueError<Never>? in
            do throws(OnlyValueError<Never>) { _ = try await shared.value.onlyValue(); return nil } catch { return error }
        }
        let subscription = try await firstSubscription(of: publisher)
        await subscription.waitForCalls { !$0.isEmpty }
        subscription.send(1)
        subscription.send(2)
        #expect(await task.value == .moreThanOneValue)
        #expect(subscription.history == [.request(.max(2)), .cancel])
    }

    @Test func onlyValueFailsWhenThereIsNoValue() async {
        await #expect(throws: OnlyValueError<Never>.noValue) {
            try await Producer<Int, Never> { _ in }.onlyValue()
        }
    }

    @Test func onlyValueWrapsTheFailure() async {
        await #expect(throws: OnlyValueError<TestError>.failure(TestError(code: 4))) {
            try await Producer<Int, TestError> { (_) throws(TestError) in throw TestError(code: 4) }.onlyValue()
        }
    }

    @Test func cancellingTheAwaitingTaskCancelsTheSubscription() async throws {
        let publisher = ControllablePublisher<Int, Never>()
        let shared = UncheckedBox(publisher)
        let task = Task { () async -> OnlyValueError<Never>? in
            do throws(OnlyValueError<Never>) { _ = try await shared.value.onlyValue(); return nil } catch { return error }
        }
        let subscription = try await firstSubscription(of: publisher)
        await subscription.waitForCalls { !$0.isEmpty }
        task.cancel()
        #expect(await task.value == .cancelled)
        #expect(subscription.history == [.request(.max(2)), .cancel])
        subscription.send(1)   // ignored after cancellation
    }

    @Test("lastValue(): cancelling the awaiting task after some values cancels upstream and returns nil, as documented")
    func lastValueCancelledByTheAwaitingTaskCancelsUpstreamAndReturnsNil() async throws {
        let publisher = ControllablePublisher<Int, TestError>()
        let shared = UncheckedBox(publisher)
        let task = Task { try await shared.value.lastValue() }
        let subscription = try await firstSubscription(of: publisher)
        await subscription.waitForCalls { !$0.isEmpty }
        for n in 1...2 { subscription.send(n) }
        task.cancel()
        #expect(try await task.value == nil)   // the values seen so far are not the last one
        #expect(subscription.history == [.request(.unlimited), .cancel])
        subscription.send(3)   // ignored after cancellation
        subscription.send(completion: .finished)
        #expect(subscription.cancelCount == 1)
    }

    @Test("firstValue(): cancelling the awaiting task while it waits cancels upstream and returns nil")
    func firstValueCancelledWhileWaitingCancelsUpstreamAndReturnsNil() async throws {
        let publisher = ControllablePublisher<Int, TestError>()
        let shared = UncheckedBox(publisher)
        let task = Task { try await shared.value.firstValue() }
        let subscription = try await firstSubscription(of: publisher)
        await subscription.waitForCalls { !$0.isEmpty }
        task.cancel()
        #expect(try await task.value == nil)
        #expect(subscription.history == [.request(.max(1)), .cancel])
    }

    @Test func anAlreadyCancelledTaskCancelsTheSubscriptionWithoutRequesting() async {
        let publisher = ControllablePublisher<Int, Never>()
        let shared = UncheckedBox(publisher)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await shared.value.firstValue()
        }
        #expect(await task.value == nil)
        #expect(publisher.subscriptions[0].history == [.cancel])
    }

    @Test func cancelRacingTheValueResumesExactlyOnce() async throws {
        for _ in 0..<StressBudget.scaled(10_000) {
            let publisher = ControllablePublisher<Int, Never>()
            let shared = UncheckedBox(publisher)
            let task = Task { await shared.value.firstValue() }
            let subscription = try await firstSubscription(of: publisher)
            await subscription.waitForCalls { !$0.isEmpty }
            let sharedSubscription = UncheckedBox(subscription)
            async let send: Void = { sharedSubscription.value.send(1) }()
            task.cancel()
            await send
            let value = await task.value
            #expect(value == nil || value == 1)
            #expect(subscription.cancelCount <= 1)
        }
    }
}
