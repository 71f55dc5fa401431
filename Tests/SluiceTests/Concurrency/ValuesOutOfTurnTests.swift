@testable import Sluice
import SluiceTesting
import Synchronization
import Testing

/// `values` facing what Combine's iterator tolerates: signals out of turn (ignored, not
/// trapped) and copies of one iterator waiting at once (each with its own demand, served in
/// order, all woken by the end).
@Suite(.timeLimit(.minutes(12))) struct ValuesOutOfTurnTests {
    // MARK: Signals out of turn

    @Test func aValueBeforeTheSubscriptionIsIgnoredAndAsksForNothing() async {
        let publisher = HeldSubscriber<Int, Never>()
        var iterator = publisher.publisher.values.makeAsyncIterator()
        #expect(publisher.subscriber.receive(7) == .none)
        let subscription = CallLog()
        publisher.subscriber.receive(subscription: subscription)
        #expect(subscription.calls.isEmpty)
        publisher.subscriber.receive(completion: .finished)
        #expect(await iterator.next() == nil, "the value sent before the subscription was kept")
    }

    @Test func aCompletionBeforeTheSubscriptionEndsTheIterationAndTheLateSubscriptionIsCancelled() async throws {
        let publisher = HeldSubscriber<Int, TestError>()
        var iterator = publisher.publisher.values.makeAsyncIterator()
        publisher.subscriber.receive(completion: .failure(TestError(code: 3)))
        await #expect(throws: TestError(code: 3)) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
        let late = CallLog()
        publisher.subscriber.receive(subscription: late)
        #expect(late.calls == [.cancel])
    }

    @Test func aValueOrASecondCompletionAfterTheCompletionIsIgnored() async {
        let publisher = ControllablePublisher<Int, Never>()
        defer { publisher.detachAll() }
        var iterator = publisher.values.makeAsyncIterator()
        let subscription = publisher.subscriptions[0]
        subscription.send(completion: .finished)
        #expect(subscription.send(1) == .none)
        subscription.send(completion: .finished)
        #expect(await iterator.next() == nil)
        #expect(subscription.requests.isEmpty && subscription.cancelCount == 0)
    }

    @Test func theIteratorsSubscriberIsCancellableAndCancelsOnce() async {
        let publisher = HeldSubscriber<Int, Never>()
        var iterator = publisher.publisher.values.makeAsyncIterator()
        let subscription = CallLog()
        publisher.subscriber.receive(subscription: subscription)
        let cancellable = try? #require(publisher.raw as? any Cancellable)
        cancellable?.cancel()
        cancellable?.cancel()
        #expect(subscription.calls == [.cancel])
        #expect(await iterator.next() == nil)
    }

    // MARK: Copies of one iterator waiting at once

    @Test func waitingCopiesEachRequestOneAndTakeValuesInTheOrderTheyCame() async {
        let publisher = ControllablePublisher<Int, Never>()
        defer { publisher.detachAll() }
        let (subscription, first, second) = await twoCopiesWaiting(on: publisher)
        #expect(subscription.value.send(1) == .none)
        #expect(subscription.value.send(2) == .none)
        #expect(await first.value == .success(1))
        #expect(await second.value == .success(2))
        #expect(subscription.value.requests == [.max(1), .max(1)])
    }

    @Test func aFailureWakesEveryWaitingCopyAndIsThrownOnce() async {
        let publisher = ControllablePublisher<Int, TestError>()
        defer { publisher.detachAll() }
        let (subscription, first, second) = await twoCopiesWaiting(on: publisher)
        subscription.value.send(completion: .failure(TestError(code: 9)))
        #expect(await first.value == .failure(TestError(code: 9)))
        #expect(await second.value == .success(nil))
    }

    @Test func cancellingOneWaitingTaskCancelsOnceAndWakesEveryCopy() async {
        let publisher = ControllablePublisher<Int, Never>()
        defer { publisher.detachAll() }
        let (subscription, first, second) = await twoCopiesWaiting(on: publisher)
        first.cancel()
        #expect(await first.value == .success(nil))
        #expect(await second.value == .success(nil))
        #expect(subscription.value.requests == [.max(1), .max(1)])
        #expect(subscription.value.cancelCount == 1)
    }

    @Test func copiesWaitingBeforeTheSubscriptionRequestTheirDemandTogether() async {
        let publisher = HeldSubscriber<Int, Never>()
        let (first, second, holder) = await twoCopiesWaitingBeforeTheSubscription(of: publisher)
        defer { withExtendedLifetime(holder) {} }  // the iterator: dropping it cancels
        let subscription = CallLog()
        publisher.subscriber.receive(subscription: subscription)
        #expect(subscription.calls == [.request(.max(2))])
        #expect(publisher.subscriber.receive(5) == .none)
        #expect(publisher.subscriber.receive(6) == .none)
        #expect(Set([await first.value.get(), await second.value.get()]) == [5, 6])
    }

    @Test func aValueBeforeTheSubscriptionWakesTheWaitingCopiesWithNilButKeepsTheirDemand() async {
        let publisher = HeldSubscriber<Int, Never>()
        let (first, second, holder) = await twoCopiesWaitingBeforeTheSubscription(of: publisher)
        defer { withExtendedLifetime(holder) {} }  // the iterator: dropping it cancels
        #expect(publisher.subscriber.receive(42) == .none)
        #expect(await first.value == .success(nil))
        #expect(await second.value == .success(nil))
        let subscription = CallLog()
        publisher.subscriber.receive(subscription: subscription)
        #expect(subscription.calls == [.request(.max(2))])
    }

    typealias Waiting<Failure: Error> = Task<Result<Int?, Failure>, Never>

    /// Two tasks waiting on copies of one iterator, the first parked before the second starts.
    private func twoCopiesWaiting<Failure: Equatable>(
        on publisher: ControllablePublisher<Int, Failure>
    ) async -> (Shared<ControllableSubscription<Int, Failure>>, Waiting<Failure>, Waiting<Failure>) {
        let holder = CopyingIterator(Shared(publisher.values.makeAsyncIterator()))
        let subscription = Shared(publisher.subscriptions[0])
        let first = Task { await holder.nextResult() }
        await subscription.value.waitForCalls { $0.count == 1 }
        await holder.waitUntilParked(1)
        let second = Task { await holder.nextResult() }
        await subscription.value.waitForCalls { $0.count == 2 }
        await holder.waitUntilParked(2)
        return (subscription, first, second)
    }

    /// Two tasks waiting on copies of one iterator whose subscription has not come yet.
    private func twoCopiesWaitingBeforeTheSubscription(
        of publisher: HeldSubscriber<Int, Never>
    ) async -> (Waiting<Never>, Waiting<Never>, holder: some Actor) {
        let holder = CopyingIterator(Shared(publisher.publisher.values.makeAsyncIterator()))
        let first = Task { await holder.nextResult() }
        let second = Task { await holder.nextResult() }
        await holder.waitUntilParked(2)
        return (first, second, holder)
    }
}

/// Holds one `values` iterator and lets several tasks wait on copies of it at once, as an
/// actor that copies its iterator into each call does. A call may give the actor up before it
/// parks in the iterator (its cancellation handler re-enqueues it), so ``waitUntilParked(_:)``
/// asks the iterator itself how many calls wait.
private actor CopyingIterator<P: Publisher> where P.Output: Sendable {
    private let iterator: AsyncPublisher<P>.Iterator

    init(_ iterator: Shared<AsyncPublisher<P>.Iterator>) { self.iterator = iterator.value }

    func nextResult() async -> Result<P.Output?, P.Failure> {
        var copy = iterator
        do throws(P.Failure) { return .success(try await copy.next()) } catch { return .failure(error) }
    }

    /// Waits until `calls` calls are parked in the iterator (or the test is cancelled: its time limit).
    func waitUntilParked(_ calls: Int) async {
        while iterator.lifetime.subscriber.state.withLock({ $0.waiting }) < calls, !Task.isCancelled {
            await Task.yield()
        }
    }
}

/// A subscription that records the calls made on it.
private final class CallLog: Subscription, Sendable {
    enum Call: Equatable { case request(Subscribers.Demand), cancel }
    private let log = Mutex<[Call]>([])
    var calls: [Call] { log.withLock { $0 } }
    func request(_ demand: Subscribers.Demand) { log.withLock { $0.append(.request(demand)) } }
    func cancel() { log.withLock { $0.append(.cancel) } }
}

