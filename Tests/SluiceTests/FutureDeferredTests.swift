import Dispatch
import Sluice
import SluiceTesting
import Testing

private struct Oops: Error, Equatable {}

/// A promise handed to other threads in tests.
///
/// Safe because a `Future`'s promise only takes the future's lock and is documented as
/// callable from any thread.
private struct SendablePromise<Output, Failure: Error>: @unchecked Sendable {
    let call: Future<Output, Failure>.Promise
}

/// Captures the promise of a future so a test can fulfil it later.
private final class PromiseHolder<Output, Failure: Error>: @unchecked Sendable {
    // Safe: written once inside `Future.init` before the holder is shared.
    var promise: Future<Output, Failure>.Promise?
}

@Suite(.timeLimit(.minutes(12))) struct DeferredTests {
    @Test func deferredRunsTheClosureOncePerSubscriberAtSubscription() {
        let count = Locked(0)
        let deferred = Deferred { () -> Just<Int> in
            let n = count.withLock { $0 += 1; return $0 }
            return Just(n)
        }
        #expect(count.withLock { $0 } == 0)
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        deferred.subscribe(first)
        deferred.subscribe(second)
        #expect(first.values == [1] && second.values == [2])
        #expect(count.withLock { $0 } == 2)
    }
}

@Suite(.timeLimit(.minutes(12))) struct FutureTests {
    @Test func futureRunsItsClosureAtInitOnce() {
        let count = Locked(0)
        let future = Future<Int, Never> { promise in
            count.withLock { $0 += 1 }
            promise(.success(1))
        }
        #expect(count.withLock { $0 } == 1)
        future.subscribe(RecordingSubscriber<Int, Never>())
        future.subscribe(RecordingSubscriber<Int, Never>())
        #expect(count.withLock { $0 } == 1)
    }

    @Test func resolvedFutureServesLaterSubscribersEachPerTheirDemand() {
        let future = Future<Int, Never> { $0(.success(5)) }
        let eager = RecordingSubscriber<Int, Never>()
        let lazy = RecordingSubscriber<Int, Never>(initialDemand: .none)
        future.subscribe(eager)
        future.subscribe(lazy)
        #expect(eager.events == [.subscription, .value(5), .completion(.finished)])
        #expect(lazy.events == [.subscription])
        lazy.request(.max(1))
        #expect(lazy.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func pendingFutureDeliversWhenFulfilledAndOnlyTheFirstPromiseCounts() {
        let holder = PromiseHolder<Int, Oops>()
        let future = Future<Int, Oops> { holder.promise = $0 }
        let recorder = RecordingSubscriber<Int, Oops>()
        future.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        holder.promise?(.success(1))
        holder.promise?(.success(2))
        holder.promise?(.failure(Oops()))
        #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func failureIsDeliveredWithoutDemand() {
        let future = Future<Int, Oops> { $0(.failure(Oops())) }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        future.subscribe(recorder)
        #expect(recorder.events == [.subscription, .completion(.failure(Oops()))])
    }

    /// The subscription's mirror child `name`, described.
    private static func child(_ name: String, of subscription: (any Subscription)?) -> String? {
        subscription.flatMap { Mirror(reflecting: $0).children.first { $0.label == name } }.map { String(describing: $0.value) }
    }

    @Test("the subscription's mirror shows the future and the subscriber while the stream lasts, through the delivery, as Combine's")
    func subscriptionMirror() {
        let holder = PromiseHolder<Int, Never>()
        let future = Future<Int, Never> { holder.promise = $0 }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        let duringDelivery = Locked<String?>(nil)
        recorder.onValue { _ in
            duringDelivery.withLock { $0 = Self.child("parent", of: recorder.subscription) }
            return .none
        }
        future.subscribe(recorder)
        let labels = recorder.subscription.map { Mirror(reflecting: $0).children.map(\.label) }
        #expect(labels == ["parent", "downstream", "hasAnyDemand", "subject"])
        #expect(Self.child("parent", of: recorder.subscription)?.contains("Future") == true)
        #expect(Self.child("subject", of: recorder.subscription)?.contains("Future") == true)
        #expect(Self.child("downstream", of: recorder.subscription)?.contains("RecordingSubscriber") == true)
        #expect(Self.child("hasAnyDemand", of: recorder.subscription) == "false")
        recorder.request(.max(1))
        #expect(Self.child("hasAnyDemand", of: recorder.subscription) == "true")
        holder.promise?(.success(1))
        #expect(duringDelivery.withLock { $0 }?.contains("Future") == true, "the future is still the parent while its value is delivered")
        #expect(Self.child("parent", of: recorder.subscription) == "nil")
        #expect(Self.child("downstream", of: recorder.subscription) == "nil")
    }

    @Test func cancelledSubscriberGetsNothingAndIsReleased() {
        let holder = PromiseHolder<Int, Never>()
        let future = Future<Int, Never> { holder.promise = $0 }
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            future.subscribe(recorder)
            recorder.cancel()
            recorder.cancel()
            holder.promise?(.success(1))
            #expect(recorder.events == [.subscription])
        }
        #expect(weakRecorder == nil)
    }

    @Test func subscriberIsReleasedAfterCompletionWhileTheSubscriptionLivesOn() {
        let future = Future<Int, Never> { $0(.success(1)) }
        weak var weakSubscriber: Keeper?
        var subscription: (any Subscription)?
        do {
            let subscriber = Keeper()
            weakSubscriber = subscriber
            future.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.subscription = nil
            subscription?.request(.max(1))
            #expect(subscriber.received == [1])
        }
        #expect(subscription != nil)
        #expect(weakSubscriber == nil)
    }

    @Test func promiseFromManyThreadsDeliversExactlyOnceToEverySubscriber() async {
        for _ in 0..<500 {
            let holder = PromiseHolder<Int, Never>()
            let future = Future<Int, Never> { holder.promise = $0 }
            let recorders = (0..<4).map { _ in RecordingSubscriber<Int, Never>() }
            let promise = SendablePromise(call: holder.promise!)
            let box = SendableFuture(future: future)
            runConcurrently(threads: 8) { index in
                if index < 4 {
                    promise.call(.success(index))
                } else {
                    box.future.subscribe(recorders[index - 4])
                }
            }
            for recorder in recorders {
                await recorder.waitForCompletion()
                #expect(recorder.values.count == 1)
                #expect(recorder.violations.isEmpty)
            }
            #expect(Set(recorders.map(\.values)).count == 1)
        }
    }

    @Test func cancelRacingRequestNeverDeliversBeyondDemand() {
        let future = Future<Int, Never> { $0(.success(1)) }
        for _ in 0..<StressBudget.scaled(2_000) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            future.subscribe(recorder)
            runConcurrently(threads: 2) { index in
                if index == 0 { recorder.request(.max(1)) } else { recorder.cancel() }
            }
            #expect(recorder.violations.isEmpty)
            #expect(recorder.events == [.subscription] || recorder.events.count == 3)
        }
    }

    @Test(.exitTest) func requestNoneOnFutureTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            Future<Int, Never> { $0(.success(1)) }.subscribe(recorder)
            recorder.subscription!.request(.none)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("(rule 2)"))
        }
    }

    @Test func subscriptionDescribesItselfAsFuture() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Future<Int, Never> { _ in }.subscribe(recorder)
        #expect(String(describing: recorder.subscription!) == "Future")
        recorder.cancel()  // the unfulfilled future, its subscription and the recorder hold each other until then
    }
}

/// A future shared with other threads in a test.
///
/// Safe because `Future` keeps all its state behind a lock.
private struct SendableFuture<Output, Failure: Error>: @unchecked Sendable {
    let future: Future<Output, Failure>
}

/// A subscriber that keeps what it received, for release checks.
private final class Keeper: Subscriber {
    var subscription: (any Subscription)?
    var received: [Int] = []
    func receive(subscription: any Subscription) { self.subscription = subscription }
    func receive(_ input: Int) -> Subscribers.Demand { received.append(input); return .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}
