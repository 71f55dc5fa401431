import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

@Suite("merge: Merge … Merge8, MergeMany, merge(with:)")
struct MergeTests {
    @Test("values from both upstreams arrive as they are sent; it finishes once both have")
    func interleaves() {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        left.merge(with: right).subscribe(recorder)
        left.send(1)
        right.send(2)
        left.send(3)
        left.send(completion: .finished)
        right.send(4)
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.completion == nil)
        right.send(completion: .finished)
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("with limited demand each upstream is asked for one value at a time; one that comes without demand waits, and its upstream is asked again once it is delivered")
    func demandOneAtATime() {
        let first = ControllablePublisher<Int, Never>()
        let second = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        first.merge(with: second).subscribe(recorder)
        let a = first.subscriptions[0], b = second.subscriptions[0]
        #expect(a.requests == [.max(1)] && b.requests == [.max(1)])

        #expect(a.send(10) == .max(1), "delivered against demand: its upstream may send the next")
        #expect(b.send(20) == .none, "no demand left: the value waits and its upstream is not asked again")
        #expect(recorder.values == [10])
        recorder.request(.max(1))
        #expect(recorder.values == [10, 20])
        #expect(b.requests == [.max(1), .max(1)], "asked again once its waiting value went out")
        #expect(recorder.violations.isEmpty)
    }

    @Test("a value waiting for demand is delivered before the merge finishes")
    func waitingValueBeforeCompletion() {
        let first = ControllablePublisher<Int, Never>()
        let second = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        Publishers.Merge(first, second).subscribe(recorder)
        _ = first.subscriptions[0].send(1)
        first.subscriptions[0].send(completion: .finished)
        second.subscriptions[0].send(completion: .finished)
        #expect(recorder.values.isEmpty && recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("the first failure cancels the other upstreams and fails the merge")
    func failureCancelsTheOthers() {
        let first = ControllablePublisher<Int, Boom>()
        let second = ControllablePublisher<Int, Boom>()
        let third = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>()
        defer { recorder.cancel() }
        first.merge(with: second, third).subscribe(recorder)
        second.subscriptions[0].send(completion: .failure(Boom()))
        #expect(recorder.completion == .failure(Boom()))
        #expect(first.subscriptions[0].cancelCount == 1 && third.subscriptions[0].cancelCount == 1)
        #expect(second.subscriptions[0].cancelCount == 0)
        _ = first.subscriptions[0].send(1)
        #expect(recorder.values.isEmpty && recorder.violations.isEmpty)
    }

    @Test("a failure does not wait for the values waiting for demand: it drops them, as Combine's merge does")
    func failureOvertakesWaitingValues() {
        let first = ControllablePublisher<Int, Boom>()
        let second = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>(initialDemand: .none)
        defer { recorder.cancel() }
        first.merge(with: second).subscribe(recorder)
        _ = first.subscriptions[0].send(1)
        second.subscriptions[0].send(completion: .failure(Boom()))
        #expect(recorder.completion == .failure(Boom()))
        recorder.request(.max(1))
        #expect(recorder.values.isEmpty && recorder.violations.isEmpty)
    }

    @Test("cancel cancels every upstream, and nothing reaches the downstream afterwards")
    func cancelReachesEveryUpstream() {
        let first = ControllablePublisher<Int, Never>()
        let second = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        first.merge(with: second).subscribe(recorder)
        recorder.cancel()
        #expect(first.subscriptions[0].cancelCount == 1 && second.subscriptions[0].cancelCount == 1)
        _ = first.subscriptions[0].send(1)
        second.subscriptions[0].send(completion: .finished)
        #expect(recorder.values.isEmpty && recorder.completion == nil && recorder.violations.isEmpty)
    }

    @Test("an upstream's second subscription is cancelled and never asked, also once that upstream has finished")
    func secondSubscriptionIsCancelled() {
        let first = HandingPublisher<Int, Never>()
        let second = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        first.merge(with: second).subscribe(recorder)
        let original = LoggingSubscription()
        first.subscriber?.receive(subscription: original)
        let early = LoggingSubscription()
        first.subscriber?.receive(subscription: early)
        first.subscriber?.receive(completion: .finished)
        let late = LoggingSubscription()
        first.subscriber?.receive(subscription: late)
        #expect(original.requests == [.unlimited] && original.cancelCount == 0)
        #expect(early.requests.isEmpty && early.cancelCount == 1)
        #expect(late.requests.isEmpty && late.cancelCount == 1, "a finished upstream's slot takes no new subscription")
        _ = second.subscriptions[0].send(1)
        #expect(recorder.values == [1] && recorder.violations.isEmpty)
    }

    @Test("a request from inside receive delivers the next waiting value after it returns, not inside it")
    func reentrantRequest() {
        let first = ControllablePublisher<Int, Never>()
        let second = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        first.merge(with: second).subscribe(recorder)
        _ = first.subscriptions[0].send(1)
        _ = second.subscriptions[0].send(2)
        recorder.onValue { [unowned recorder] _ in
            recorder.request(.max(1))
            return .none
        }
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2])
        #expect(recorder.violations.isEmpty, "overlapping signals or values beyond demand")
    }

    @Test("the types are Combine's: fused merges grow up to Merge8, merge(with: Self) is a MergeMany")
    func resultTypes() {
        let a = Just(1), b = Just(2)
        let two: Publishers.Merge<Just<Int>, Just<Int>> = a.merge(with: b)
        let three: Publishers.Merge3<Just<Int>, Just<Int>, Just<Int>> = two.merge(with: Just(3))
        let eight: Publishers.Merge8<Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>> =
            three.merge(with: Just(4), Just(5), Just(6), Just(7), Just(8))
        let many: Publishers.MergeMany<Empty<Int, Never>> = Empty<Int, Never>().merge(with: Empty())
        #expect(two == Publishers.Merge(Just(1), Just(2)))
        let recorder = RecordingSubscriber<Int, Never>()
        eight.subscribe(recorder)
        // Each Just delivers when subscribed, and Merge8 subscribes them in order.
        #expect(recorder.values == Array(1...8) && recorder.completion == .finished)
        let manyRecorder = RecordingSubscriber<Int, Never>()
        many.merge(with: Empty()).subscribe(manyRecorder)
        #expect(manyRecorder.completion == .finished)
        let none = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Publishers.MergeMany<Just<Int>>([]).subscribe(none)
        #expect(none.completion == .finished, "with no upstream it finishes at once")
    }
}
