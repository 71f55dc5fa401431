import Dispatch
import Sluice
import SluiceTesting
import Testing

/// A publisher that hands the subscription over only when the test says so.
final class LateSubscriptionPublisher: Publisher, Sendable {
    typealias Output = Int
    typealias Failure = Never
    private let shared = Shared(ControllablePublisher<Int, Never>())
    var inner: ControllablePublisher<Int, Never> { shared.value }
    private let pending = Locked<[Shared<AnySubscriber<Int, Never>>]>([])

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        pending.withLock { $0.append(Shared(AnySubscriber(subscriber))) }
    }

    func attach() {
        for subscriber in pending.withLock({ $0 }) { inner.subscribe(subscriber.value) }
    }
}

@Suite(.timeLimit(.minutes(12))) struct ValuesCancellationTests {
    @Test func cancellingTheTaskBeforeTheSubscriptionArrivesReturnsNilAndCancelsItOnArrival() async {
        let publisher = LateSubscriptionPublisher()
        let task = Task {
            var iterator = publisher.values.makeAsyncIterator()
            return await iterator.next()
        }
        task.cancel()
        #expect(await task.value == nil)
        publisher.attach()
        let subscription = publisher.inner.subscriptions[0]
        #expect(subscription.cancelCount == 1)
        #expect(subscription.requests.isEmpty)
    }

    @Test func cancellingTheTaskWhileSuspendedReturnsNilAndCancelsUpstreamOnce() async {
        let publisher = ControllablePublisher<Int, Never>()
        let iterator = Shared(publisher.values.makeAsyncIterator())
        let subscription = publisher.subscriptions[0]
        let task = Task {
            var iterator = iterator.value
            let first = await iterator.next()
            let second = await iterator.next()
            return (first, second)
        }
        await subscription.waitForCalls { $0.count == 1 }
        task.cancel()
        let (first, second) = await task.value
        #expect(first == nil)
        #expect(second == nil)
        #expect(subscription.history == [.request(.max(1)), .cancel])
    }

    @Test func cancellingTheTaskDuringDeliveryEndsTheLoopAtTheNextNext() async {
        let received = await Task {
            var received: [Int] = []
            for await value in SyncRangePublisher(0..<100).values {
                received.append(value)
                if value == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return received
        }.value
        #expect(received == [0, 1, 2])
    }

    @Test func breakingOutOfTheLoopCancelsUpstreamExactlyOnce() async throws {
        let publisher = ControllablePublisher<Int, Never>()
        let shared = Shared(publisher)
        let driver = Task {
            let upstream = try await firstSubscription(of: shared)
            await upstream.waitForCalls { $0.count == 1 }
            upstream.send(1)
        }
        for await value in publisher.values {
            #expect(value == 1)
            break
        }
        try await driver.value
        #expect(publisher.subscriptions[0].history == [.request(.max(1)), .cancel])
    }

    @Test func droppingAnIteratorThatWasNeverAskedCancelsUpstream() {
        let publisher = ControllablePublisher<Int, Never>()
        do {
            let iterator = publisher.values.makeAsyncIterator()
            withExtendedLifetime(iterator) {}
        }
        #expect(publisher.subscriptions[0].history == [.cancel])
    }

    @Test func aThrownErrorInTheLoopBodyCancelsUpstream() async {
        let publisher = SyncRangePublisher(0..<10)
        do throws(TestError) {
            for await value in publisher.values where value == 3 { throw TestError(code: value) }
        } catch {
            #expect(error.code == 3)
        }
        #expect(publisher.liveSubscriptions == 0)
    }

    @Test func completionAndCancellationReleaseTheUpstreamSubscription() async {
        let finished = SyncRangePublisher(0..<3)
        var iterator = finished.values.makeAsyncIterator()
        while await iterator.next() != nil {}
        #expect(finished.liveSubscriptions == 0, "released after completion while the iterator lives")

        let cancelled = SyncRangePublisher(0..<3)
        let task = Task {
            var iterator = cancelled.values.makeAsyncIterator()
            _ = await iterator.next()
            withUnsafeCurrentTask { $0?.cancel() }
            let afterCancel = await iterator.next()
            return (afterCancel, cancelled.liveSubscriptions)
        }
        let (afterCancel, live) = await task.value
        #expect(afterCancel == nil)
        #expect(live == 0, "released after cancellation while the iterator lives")
        withExtendedLifetime(iterator) {}
    }

    @Test func nothingLeaksAfterBreakingOutOrFinishing() async {
        for breakEarly in [true, false] {
            let publisher = SyncRangePublisher(0..<5)
            weak var weakLifetime: AnyObject?
            weak var weakSubscriber: AnyObject?
            do {
                var iterator = publisher.values.makeAsyncIterator()
                let lifetime = Mirror(reflecting: iterator).children.first!.value as AnyObject
                weakLifetime = lifetime
                weakSubscriber = Mirror(reflecting: lifetime).children.first!.value as AnyObject
                while let value = await iterator.next() {
                    if breakEarly && value == 1 { break }
                }
            }
            #expect(weakLifetime == nil)
            #expect(weakSubscriber == nil, "subscriber and upstream subscription must not form a cycle")
            #expect(publisher.liveSubscriptions == 0)
        }
    }

    // MARK: Races

    @Test func taskCancellationRacingDeliveryResumesOnceAndCancelsAtMostOnce() async {
        for _ in 0..<StressBudget.scaled(10_000) {
            let publisher = ControllablePublisher<Int, Never>()
            let iterator = Shared(publisher.values.makeAsyncIterator())
            let subscription = Shared(publisher.subscriptions[0])
            let task = Task {
                var iterator = iterator.value
                var received: [Int] = []
                while let value = await iterator.next() { received.append(value) }
                return received
            }
            await subscription.value.waitForCalls { $0.count == 1 }
            runConcurrently(threads: 2) { index in
                if index == 0 {
                    task.cancel()
                } else {
                    subscription.value.send(1)
                    subscription.value.send(completion: .finished)
                }
            }
            let received = await task.value
            #expect(received == [] || received == [1])
            #expect(subscription.value.cancelCount <= 1)
        }
    }

    @Test func taskCancellationRacingSynchronousRequestsEndsCleanly() async {
        for _ in 0..<StressBudget.scaled(10_000) {
            let publisher = SyncRangePublisher(0..<50)
            let task = Task {
                var count = 0
                for await _ in publisher.values { count += 1 }
                return count
            }
            task.cancel()
            #expect(await task.value <= 50)
            #expect(publisher.liveSubscriptions == 0)
        }
    }
}

private func firstSubscription(of publisher: Shared<ControllablePublisher<Int, Never>>) async throws
    -> ControllableSubscription<Int, Never>
{
    try #require(await publisher.value.firstSubscription(), "nobody subscribed before the test was cancelled")
}
