@_spi(Internals) import Sluice
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
            await hold.wait()
            return 1
        }
        mutating func next() async -> Int? { await next(isolation: nil) }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(entered: entered, hold: hold) }
}

/// Subscribes a subscriber that keeps `probe` alive and remembers the subscription weakly;
/// returns that subscription. The subscriber itself is held only by the publisher's side.
private func subscribe<P: Publisher>(
    _ publisher: P, demand: Subscribers.Demand, probe: DeinitProbe,
    completed: Locked<Bool>
) -> (any Subscription)? where P.Output == Int, P.Failure == Never {
    let subscription = Locked<(any Subscription)?>(nil)
    publisher.subscribe(AnySubscriber<Int, Never>(
        receiveSubscription: { received in subscription.withLock { $0 = received }; received.request(demand) },
        receiveValue: { _ in _ = probe; return .none },
        receiveCompletion: { _ in completed.withLock { $0 = true } }))
    return subscription.withLock { $0 }
}

/// Rule 4 for the publishers driven by a task of their own: after `cancel()` the subscription
/// holds no subscriber, even while the task is still inside user code that ignores the
/// cancellation. Without it the subscriber lives until that code returns (perhaps never).
@Suite("Task-driven subscriptions release the subscriber on cancel", .timeLimit(.minutes(1)))
struct TaskSubscriberReleaseTests {
    @Test("AsyncSequence.publisher: cancel releases the subscriber while next() is still running, and nothing follows")
    func sequencePublisherReleasesWhileNextRuns() async {
        let entered = Gate(), hold = Gate(), released = Gate()
        let completed = Locked(false)
        let subscription = subscribe(
            StubbornSequence(entered: entered, hold: hold).publisher, demand: .unlimited,
            probe: DeinitProbe(released), completed: completed)
        await entered.wait()  // the task is inside next()
        subscription?.cancel()
        await released.waitUnlessCancelled()
        #expect(released.isOpen, "the subscriber outlived the cancel")
        #expect(!hold.isOpen)
        hold.open()  // next() returns a value now: it must reach no one
        #expect(!completed.withLock { $0 })
    }

    @Test("Producer: cancel releases the subscriber while the body awaits something else, and nothing follows")
    func producerReleasesWhileBodyRuns() async {
        let entered = Gate(), hold = Gate(), released = Gate()
        let completed = Locked(false)
        let producer = Producer<Int, Never> { sender in
            await sender.send(1)
            entered.open()
            await hold.wait()  // ignores the cancellation
            await sender.send(2)
        }
        let subscription = subscribe(producer, demand: .unlimited, probe: DeinitProbe(released), completed: completed)
        await entered.wait()
        subscription?.cancel()
        await released.waitUnlessCancelled()
        #expect(released.isOpen, "the subscriber outlived the cancel")
        #expect(!hold.isOpen)
        hold.open()
        #expect(!completed.withLock { $0 })
    }

    @Test("AsyncFuture: cancel releases the subscriber while the operation runs")
    func asyncFutureReleasesWhileOperationRuns() async {
        let entered = Gate(), hold = Gate(), released = Gate()
        let completed = Locked(false)
        let future = AsyncFuture<Int, Never> {
            entered.open()
            await hold.wait()
            return 1
        }
        let subscription = subscribe(future, demand: .max(1), probe: DeinitProbe(released), completed: completed)
        await entered.wait()
        subscription?.cancel()
        await released.waitUnlessCancelled()
        #expect(released.isOpen, "the subscriber outlived the cancel")
        #expect(!hold.isOpen)
        hold.open()
        #expect(!completed.withLock { $0 })
    }
}
