import Sluice
import SluiceTesting
import Testing

private struct Oops: Error, Equatable {}

@Suite("ControllablePublisher and ControllableSubscription", .timeLimit(.minutes(12)))
struct ControllablePublisherTests {
    @Test("Each subscriber gets its own subscription, listed in order of subscription")
    func eachSubscriberGetsItsOwnSubscription() {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        #expect(publisher.subscriptions.isEmpty)
        let first = RecordingSubscriber<Int, Oops>(initialDemand: .max(1))
        let second = RecordingSubscriber<Int, Oops>(initialDemand: .max(2))
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(publisher.subscriptions.count == 2)
        #expect(publisher.subscriptions[0] !== publisher.subscriptions[1])
        #expect(publisher.subscriptions[0].requests == [.max(1)])
        #expect(publisher.subscriptions[1].requests == [.max(2)])
        #expect(first.subscription as? ControllableSubscription<Int, Oops> === publisher.subscriptions[0])
        #expect(second.subscription as? ControllableSubscription<Int, Oops> === publisher.subscriptions[1])
    }

    @Test("history records every request and cancel in the order they were made, repeats included")
    func historyRecordsEveryCallInOrder() {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .max(1))
        publisher.subscribe(recorder)
        let subscription = publisher.subscriptions[0]
        recorder.request(.max(2))
        recorder.cancel()
        recorder.request(.max(3))
        recorder.cancel()
        #expect(subscription.history == [.request(.max(1)), .request(.max(2)), .cancel, .request(.max(3)), .cancel])
        #expect(subscription.requests == [.max(1), .max(2), .max(3)])
        #expect(subscription.cancelCount == 2)
    }

    @Test("requestedDemand sums the requests and saturates at unlimited; it ignores demand returned from values")
    func requestedDemandSumsRequests() {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none, demandPerValue: .max(10))
        publisher.subscribe(recorder)
        let subscription = publisher.subscriptions[0]
        #expect(subscription.requestedDemand == .none)
        recorder.request(.max(2))
        recorder.request(.max(3))
        #expect(subscription.requestedDemand == .max(5))
        subscription.send(1)
        #expect(subscription.requestedDemand == .max(5))
        recorder.request(.unlimited)
        recorder.request(.max(1))
        #expect(subscription.requestedDemand == .unlimited)
    }

    @Test("send(_:) delivers the value and returns the demand the subscriber answered")
    func sendDeliversAndReturnsTheAnswer() {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .max(2), demandPerValue: .max(1))
        publisher.subscribe(recorder)
        let subscription = publisher.subscriptions[0]
        #expect(subscription.send(7) == .max(1))
        recorder.demandPerValue = .none
        #expect(subscription.send(8) == .none)
        #expect(recorder.values == [7, 8])
        #expect(recorder.violations.isEmpty)
    }

    @Test("send(_:) delivers even beyond demand, so a subscriber's defences can be tested")
    func sendIgnoresDemand() {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        publisher.subscribe(recorder)
        publisher.subscriptions[0].send(1)
        #expect(recorder.values == [1])
        #expect(recorder.violations == ["received a value beyond demand (rule 2)"])
    }

    @Test("send(completion:) delivers a finish or a failure to the subscriber")
    func sendCompletionDelivers() {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        let finishing = RecordingSubscriber<Int, Oops>()
        let failing = RecordingSubscriber<Int, Oops>()
        publisher.subscribe(finishing)
        publisher.subscribe(failing)
        publisher.subscriptions[0].send(completion: .finished)
        publisher.subscriptions[1].send(completion: .failure(Oops()))
        #expect(finishing.completion == .finished)
        #expect(failing.completion == .failure(Oops()))
    }

    @Test("A subscription describes itself as ControllableSubscription")
    func description() {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        publisher.subscribe(RecordingSubscriber<Int, Oops>())
        #expect(publisher.subscriptions[0].description == "ControllableSubscription")
    }

    @Test("firstSubscription waits for a subscriber that subscribes from another task")
    func firstSubscriptionWaitsForASubscriber() async {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        let shared = UncheckedPair(publisher, RecordingSubscriber<Int, Oops>(initialDemand: .max(3)))
        let waiter = Task { () -> [Subscribers.Demand]? in
            guard let first = await shared.first.firstSubscription() else { return nil }
            #expect(first === shared.first.subscriptions[0])
            return first.requests
        }
        publisher.subscribe(shared.second)
        #expect(await waiter.value == [.max(3)])
    }

    @Test("firstSubscription returns nil when the waiting task is cancelled before anyone subscribes")
    func firstSubscriptionEndsOnCancellation() async {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        let shared = UncheckedPair(publisher, ())
        let waiter = Task { await shared.first.firstSubscription() == nil }
        waiter.cancel()
        #expect(await waiter.value)
        #expect(publisher.subscriptions.isEmpty)
    }

    @Test("waitForCalls returns at once when the calls already satisfy the predicate")
    func waitForCallsReturnsAtOnce() async {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        publisher.subscribe(RecordingSubscriber<Int, Oops>(initialDemand: .max(1)))
        let subscription = publisher.subscriptions[0]
        await subscription.waitForCalls { $0 == [.request(.max(1))] }
        #expect(subscription.history == [.request(.max(1))])
    }

    @Test("waitForCalls suspends until a call from another task satisfies the predicate")
    func waitForCallsResumesOnALaterCall() async {
        let publisher = ControllablePublisher<Int, Oops>()
        defer { publisher.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        publisher.subscribe(recorder)
        let subscription = publisher.subscriptions[0]
        let (evaluated, evaluation) = AsyncStream.makeStream(of: Int.self)
        async let waited: [ControllableSubscription<Int, Oops>.Call] = {
            await subscription.waitForCalls { calls in
                evaluation.yield(calls.count)
                return calls.contains(.cancel)
            }
            return subscription.history
        }()
        // The predicate has been evaluated (and failed) once: the waiter is registered.
        var evaluations = evaluated.makeAsyncIterator()
        #expect(await evaluations.next() == 0)
        recorder.request(.max(1))
        recorder.cancel()
        #expect(await waited == [.request(.max(1)), .cancel])
    }
}

extension ControllablePublisherTests {
    @Test("waitForCalls ends when the awaiting task is cancelled instead of hanging")
    func waitForCallsIsCancellable() async {
        let publisher = ControllablePublisher<Int, Oops>()
        publisher.subscribe(RecordingSubscriber<Int, Oops>(initialDemand: .none))
        let subscription = publisher.subscriptions[0]
        let (evaluated, evaluation) = AsyncStream.makeStream(of: Void.self)
        let waiter = Task {
            defer { subscription.detach() }
            await subscription.waitForCalls { calls in
                evaluation.yield()
                return calls.contains(.cancel)
            }
            return subscription.history
        }
        var evaluations = evaluated.makeAsyncIterator()
        await evaluations.next()
        waiter.cancel()
        #expect(await waiter.value.isEmpty)
    }
}

/// Shares test objects that are not Sendable with a task the test awaits: only one side uses
/// them at a time.
private struct UncheckedPair<First, Second>: @unchecked Sendable {
    let first: First
    let second: Second
    init(_ first: First, _ second: Second) { self.first = first; self.second = second }
}
