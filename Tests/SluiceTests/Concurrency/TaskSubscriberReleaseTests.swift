import Sluice
import SluiceTesting
import Testing

/// An async sequence whose `next()` opens `entered`, then waits for `hold` without looking at
/// cancellation: user code that a cancel cannot hurry.
private struct StubbornSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never
    let entered: Gate
    let hold: Gate

    struct AsyncIterator: AsyncIteratorProtocol {
        let entered: Gate
        let hold: Gate
        mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
            entered.open()
            await hold.waitIgnoringCancellation(for: "the test to let the user code end")
            return 1
        }
        mutating func next() async -> Int? { await next(isolation: nil) }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(entered: entered, hold: hold) }
}

/// Subscribes a subscriber that is held only by the publisher's side, waits until the task is
/// inside user code (`entered`) that waits for `hold` and ignores cancellation, cancels, and
/// expects the subscriber released before `hold` opens, and nothing delivered after it.
private func expectCancelReleasesTheSubscriber<P: Publisher>(
    _ publisher: P, demand: Subscribers.Demand, entered: Gate, hold: Gate
) async where P.Output == Int, P.Failure == Never {
    let released = Gate()
    let signalsAfterCancel = Locked(0)
    let cancelled = Locked(false)
    let subscription = Locked<(any Subscription)?>(nil)
    do {
        let probe = DeinitProbe(released)
        publisher.subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { received in subscription.withLock { $0 = received }; received.request(demand) },
            receiveValue: { _ in
                _ = probe
                if cancelled.withLock({ $0 }) { signalsAfterCancel.withLock { $0 += 1 } }
                return .none
            },
            receiveCompletion: { _ in signalsAfterCancel.withLock { $0 += 1 } }))
    }
    await entered.wait()
    cancelled.withLock { $0 = true }
    subscription.withLock { $0 }?.cancel()
    await released.wait()
    #expect(released.isOpen, "the subscriber outlived the cancel")
    #expect(!hold.isOpen)
    hold.open()  // the user code goes on now: nothing of it may reach the subscriber
    #expect(signalsAfterCancel.withLock { $0 } == 0)
}

/// Rule 4 for the publishers driven by a task of their own: after `cancel()` the subscription
/// holds no subscriber, even while the task is still inside user code that ignores the
/// cancellation. Without it the subscriber lives until that code returns (perhaps never).
@Suite("Task-driven subscriptions release the subscriber on cancel", .timeLimit(.minutes(12)))
struct TaskSubscriberReleaseTests {
    @Test("AsyncSequence.publisher: cancel releases the subscriber while next() is still running, and nothing follows")
    func sequencePublisherReleasesWhileNextRuns() async {
        let entered = Gate(), hold = Gate()
        await expectCancelReleasesTheSubscriber(
            StubbornSequence(entered: entered, hold: hold).publisher, demand: .unlimited, entered: entered, hold: hold)
    }

    @Test("IsolatedAsyncSequencePublisher: cancel releases the subscriber while next() is still running, and nothing follows")
    func isolatedSequencePublisherReleasesWhileNextRuns() async {
        let entered = Gate(), hold = Gate()
        let owner = SequenceOwner<Never> { _ in
            entered.open()
            await hold.waitIgnoringCancellation(for: "the test to let the user code end")  // ignores the cancellation
            return 1
        }
        await expectCancelReleasesTheSubscriber(owner.published(), demand: .unlimited, entered: entered, hold: hold)
    }

    @Test("Producer: cancel releases the subscriber while the body awaits something else, and nothing follows")
    func producerReleasesWhileBodyRuns() async {
        let entered = Gate(), hold = Gate()
        let producer = Producer<Int, Never> { sender in
            await sender.send(1)
            entered.open()
            await hold.waitIgnoringCancellation(for: "the test to let the user code end")  // ignores the cancellation
            await sender.send(2)
        }
        await expectCancelReleasesTheSubscriber(producer, demand: .unlimited, entered: entered, hold: hold)
    }

    @Test("AsyncFuture: cancel releases the subscriber while the operation runs, and nothing follows")
    func asyncFutureReleasesWhileOperationRuns() async {
        let entered = Gate(), hold = Gate()
        let future = AsyncFuture<Int, Never> {
            entered.open()
            await hold.waitIgnoringCancellation(for: "the test to let the user code end")
            return 1
        }
        await expectCancelReleasesTheSubscriber(future, demand: .max(1), entered: entered, hold: hold)
    }
}
