import Testing
import Sluice
import SluiceTesting

// Each recorder is cancelled on leaving its test (`defer`): an operator's subscription keeps
// its subscriber until it ends, and the recorder keeps its subscription, so a test that left
// one open would leave the pair alive (the leak checker reports it).

@Suite("collect(_:) (Publishers.CollectByCount)")
struct CollectByCountTests {
    @Test("its subscription mirrors Combine's children: downstream, upstreamSubscription, buffer, count")
    func mirror() throws {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<[Int], Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        upstream.collect(3).subscribe(recorder)
        _ = upstream.subscriptions[0].send(7)
        let given = try #require(recorder.subscription)
        let children = Array(try #require(given as? any CustomReflectable).customMirror.children)
        #expect(children.map(\.label) == ["downstream", "upstreamSubscription", "buffer", "count"])
        #expect(children[2].value as? [Int] == [7])
        #expect(children[3].value as? Int == 3)
    }

    @Test("full arrays as they fill, the rest in a shorter one at .finished")
    func arraysOfCount() {
        let recorder = RecordingSubscriber<[Int], Never>()
        defer { recorder.cancel() }
        (1...7).publisher.collect(3).subscribe(recorder)
        #expect(recorder.values == [[1, 2, 3], [4, 5, 6], [7]])
        #expect(recorder.completion == .finished)
        #expect(recorder.subscription.map { "\($0)" } == "CollectByCount")
        #expect(recorder.violations.isEmpty)

        let exact = RecordingSubscriber<[Int], Never>()
        defer { exact.cancel() }
        (1...4).publisher.collect(2).subscribe(exact)
        #expect(exact.values == [[1, 2], [3, 4]])   // no empty array at the end
        let none = RecordingSubscriber<[Int], Never>()
        defer { none.cancel() }
        Empty<Int, Never>().collect(2).subscribe(none)
        #expect(none.values.isEmpty)
        #expect(none.completion == .finished)
    }

    @Test("a demand of n arrays asks the upstream for n × count elements, demand returned too")
    func demandScales() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<[Int], Never>(initialDemand: .max(2), demandPerValue: .max(1))
        defer { recorder.cancel() }
        upstream.collect(3).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.max(6)])
        recorder.request(.max(1))
        #expect(subscription.requests == [.max(6), .max(3)])
        #expect(subscription.send(1) == .none)
        #expect(subscription.send(2) == .none)
        #expect(subscription.send(3) == .max(3))
        #expect(recorder.values == [[1, 2, 3]])
    }

    @Test("the upstream demand saturates at .unlimited")
    func demandSaturates() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<[Int], Never>(initialDemand: .max(Int.max / 2))
        defer { recorder.cancel() }
        upstream.collect(3).subscribe(recorder)
        #expect(upstream.subscriptions[0].requests == [.unlimited])
    }

    @Test("a failure drops the elements collected since the last array and is passed on")
    func failureDropsRest() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<[Int], TestError>()
        defer { recorder.cancel() }
        upstream.collect(3).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        for value in 1...5 { subscription.send(value) }
        subscription.send(completion: .failure(TestError(code: 4)))
        #expect(recorder.values == [[1, 2, 3]])
        #expect(recorder.completion == .failure(TestError(code: 4)))
    }

    @Test("a cancel reaches the upstream once; nothing follows it")
    func cancel() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<[Int], Never>()
        defer { recorder.cancel() }
        upstream.collect(2).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        subscription.send(1)
        recorder.cancel()
        recorder.cancel()
        #expect(subscription.cancelCount == 1)
        subscription.send(2)
        subscription.send(completion: .finished)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == nil)
    }

    @Test("the upstream's subscriber is the subscription handed down with the upstream's; a request or a cancel before it is ignored, as in Combine")
    func earlySignals() throws {
        let upstream = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<[Int], Never>(initialDemand: .max(2))
        defer { recorder.cancel() }
        upstream.collect(3).subscribe(recorder)
        let subscription = try #require(upstream.raw as? any Subscription)
        subscription.request(.max(1))
        subscription.cancel()
        #expect(upstream.subscriber?.receive(1) == Subscribers.Demand.none, "a value before the subscription is ignored")
        #expect(recorder.events.isEmpty)
        let logging = LoggingSubscription()
        upstream.subscriber?.receive(subscription: logging)
        #expect(recorder.subscription != nil && logging.requests == [.max(6)] && logging.cancelCount == 0)
        let second = LoggingSubscription()
        upstream.subscriber?.receive(subscription: second)
        #expect(second.cancelCount == 1)
    }

    @Test("a completion before the upstream's subscription reaches the subscriber, as in Combine, and a subscription after it is cancelled")
    func completionBeforeSubscription() {
        let upstream = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<[Int], Never>()
        upstream.collect(2).subscribe(recorder)
        upstream.subscriber?.receive(completion: .finished)
        #expect(recorder.completion == .finished)
        let late = LoggingSubscription()
        upstream.subscriber?.receive(subscription: late)
        #expect(late.cancelCount == 1 && recorder.subscription == nil)
    }
}
