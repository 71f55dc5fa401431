import Testing
import Sluice
import SluiceTesting

@Suite("multicast and makeConnectable: one upstream subscription per connect, shared through one subject", .timeLimit(.minutes(12)))
struct MulticastTests {
    @Test("nothing is subscribed before connect; connect subscribes the upstream once for every subscriber")
    func connectSubscribesOnceForAll() {
        let upstream = ControllablePublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let first = RecordingSubscriber<Int, Never>(), second = RecordingSubscriber<Int, Never>()
        defer { first.cancel(); second.cancel() }
        multicast.subscribe(first)
        multicast.subscribe(second)
        #expect(upstream.subscriptions.isEmpty)
        let connection = multicast.connect()
        #expect(connection is AnyCancellable)
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscriptions[0].requests == [.unlimited])
        upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(completion: .finished)
        #expect(first.values == [1] && second.values == [1])
        #expect(first.completion == .finished && second.completion == .finished)
        #expect(first.violations.isEmpty && second.violations.isEmpty)
    }

    @Test("the connection's cancel cancels the upstream subscription; values after it reach nobody")
    func connectionCancelCancelsUpstream() {
        let upstream = ControllablePublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        multicast.subscribe(recorder)
        let connection = multicast.connect()
        upstream.subscriptions[0].send(1)
        connection.cancel()
        connection.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        upstream.subscriptions[0].send(2)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
    }

    @Test("each connect subscribes again, as Combine's: two connections deliver a hot upstream's values twice")
    func connectTwiceSubscribesTwice() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        multicast.subscribe(recorder)
        let first = multicast.connect(), second = multicast.connect()
        upstream.send(7)
        #expect(recorder.values == [7, 7])
        first.cancel()
        upstream.send(8)
        #expect(recorder.values == [7, 7, 8])
        second.cancel()
        upstream.send(9)
        #expect(recorder.values == [7, 7, 8])
    }

    @Test("the subject is made on first use, once, however many subscribers and connects follow")
    func factoryCalledOnce() {
        let calls = Locked(0)
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast { () -> PassthroughSubject<Int, Never> in
            calls.withLock { $0 += 1 }
            return PassthroughSubject()
        }
        #expect(calls.withLock { $0 } == 0, "not made before it is needed")
        let recorders = (0..<3).map { _ in RecordingSubscriber<Int, Never>() }
        defer { recorders.forEach { $0.cancel() } }
        recorders.forEach { multicast.subscribe($0) }
        let connection = multicast.connect()
        defer { connection.cancel() }
        upstream.send(1)
        #expect(calls.withLock { $0 } == 1)
        #expect(recorders.allSatisfy { $0.values == [1] })
    }

    @Test("threads racing to the first subscribe and connect make one subject; they wait for the one making it", arguments: 0..<20)
    func factoryCalledOnceUnderRace(round: Int) {
        let calls = Locked(0), arrived = Locked(0)
        let multicast = Shared(PassthroughSubject<Int, Never>().multicast { () -> PassthroughSubject<Int, Never> in
            calls.withLock { $0 += 1 }
            // The first caller holds on until every thread has come to the multicast, and a
            // while more, so that the others ask while the subject is being made.
            while arrived.withLock({ $0 }) < 4 {}
            for _ in 0..<1_000 { _ = arrived.withLock { $0 } }
            return PassthroughSubject()
        })
        runConcurrently(threads: 4) { thread in
            arrived.withLock { $0 += 1 }
            if thread == 0 {
                multicast.value.connect().cancel()
            } else {
                let recorder = RecordingSubscriber<Int, Never>()
                multicast.value.subscribe(recorder)
                recorder.cancel()
            }
        }
        #expect(calls.withLock { $0 } == 1)
    }

    @Test("a second subscription from the subject is cancelled and never reaches the downstream (rule 1), as Combine's multicast does")
    func secondSubscriptionFromTheSubjectIsCancelled() {
        let subject = SubscribingTwiceSubject()
        let recorder = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).multicast(subject: subject).subscribe(recorder)
        #expect(recorder.violations.isEmpty, "\(recorder.violations)")
        #expect(subject.extra.cancels.withLock { $0 } == 1)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.values == [1], "requests and the cancel reach the subject's first subscription")
    }

    @Test("the multicast's subscriber requests from the subject the demand the downstream returns instead of returning it, and passes nothing after a completion, as Combine's")
    func innerSubscriberRequestsReturnedDemand() throws {
        let subject = HandingSubject()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(42), demandPerValue: .max(2))
        Empty<Int, TestError>(completeImmediately: false).multicast(subject: subject).subscribe(recorder)
        let inner = try #require(subject.subscriber)
        #expect(inner.receive(1) == .none)
        recorder.demandPerValue = .none
        #expect(inner.receive(2) == .none)
        #expect(subject.subscription.requests == [.max(42), .max(2)])
        inner.receive(completion: .failure(TestError()))
        inner.receive(completion: .finished)
        #expect(inner.receive(3) == .none)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .completion(.failure(TestError()))])
        #expect(recorder.violations.isEmpty)
    }

    @Test("after the downstream's first cancel, its requests and cancels reach the subject no more, and nothing the subject sends reaches it (rule 4)")
    func nothingPassesAfterCancel() throws {
        let subject = HandingSubject()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
        Empty<Int, TestError>(completeImmediately: false).multicast(subject: subject).subscribe(recorder)
        let inner = try #require(subject.subscriber)
        let subscription = try #require(recorder.subscription)
        subscription.request(.max(3))
        subscription.cancel()
        subscription.cancel()
        subscription.request(.max(30))
        #expect(subject.subscription.requests == [.max(3)] && subject.subscription.cancelCount == 1)
        #expect(inner.receive(1) == .none)
        inner.receive(completion: .finished)
        #expect(recorder.events == [.subscription])
    }

    /// A subject that keeps its subscriber for the test to call, and gives it a logging
    /// subscription.
    private final class HandingSubject: Subject, @unchecked Sendable {
        // Unchecked: each test uses it from one thread only.
        typealias Output = Int
        typealias Failure = TestError
        var subscriber: AnySubscriber<Int, TestError>?
        let subscription = LoggingSubscription()

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
            self.subscriber = AnySubscriber(subscriber)
            subscriber.receive(subscription: subscription)
        }
        func send(_ value: Int) {}
        func send(completion: Subscribers.Completion<TestError>) {}
        func send(subscription: any Subscription) {}
    }

    /// A subject that gives each subscriber a second subscription after its own.
    private final class SubscribingTwiceSubject: Subject, Sendable {
        typealias Output = Int
        typealias Failure = Never
        let inner = PassthroughSubject<Int, Never>()
        let extra = CountingSubscription()

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            inner.receive(subscriber: subscriber)
            subscriber.receive(subscription: extra)
        }
        func send(_ value: Int) { inner.send(value) }
        func send(completion: Subscribers.Completion<Never>) { inner.send(completion: completion) }
        func send(subscription: any Subscription) { inner.send(subscription: subscription) }
    }

    /// Counts its cancels.
    private final class CountingSubscription: Subscription, Sendable {
        let cancels = Locked(0)
        func request(_ demand: Subscribers.Demand) {}
        func cancel() { cancels.withLock { $0 += 1 } }
    }

    @Test("multicast(subject:) shares the given subject: what other code sends to it reaches the subscribers")
    func givenSubjectIsShared() {
        let upstream = PassthroughSubject<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let one = upstream.multicast(subject: subject), other = upstream.multicast(subject: subject)
        let first = RecordingSubscriber<Int, Never>(), second = RecordingSubscriber<Int, Never>()
        defer { first.cancel(); second.cancel() }
        one.subscribe(first)
        other.subscribe(second)
        subject.send(1)                       // not through the upstream, and without connect
        let connection = one.connect()
        defer { connection.cancel() }
        upstream.send(2)
        #expect(first.values == [1, 2] && second.values == [1, 2])
    }

    @Test("a late subscriber misses what was sent before it; after the upstream completes, one gets the completion at once")
    func lateSubscribers() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let early = RecordingSubscriber<Int, Never>(), late = RecordingSubscriber<Int, Never>()
        let latest = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { early.cancel(); late.cancel() }
        multicast.subscribe(early)
        let connection = multicast.connect()
        defer { connection.cancel() }
        upstream.send(1)
        multicast.subscribe(late)
        upstream.send(2)
        upstream.send(completion: .finished)
        multicast.subscribe(latest)
        #expect(early.values == [1, 2] && late.values == [2])
        #expect(latest.events == [.subscription, .completion(.finished)])
    }

    @Test("demand: the upstream is asked for .unlimited only once a subscriber asks; each subscriber gets only what it has demand for, and the demand it returns from receive counts")
    func demand() {
        let upstream = ControllablePublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let one = RecordingSubscriber<Int, Never>(initialDemand: .none)
        let more = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        defer { one.cancel(); more.cancel() }
        multicast.subscribe(one)
        let connection = multicast.connect()
        defer { connection.cancel() }
        #expect(upstream.subscriptions[0].requests.isEmpty, "nobody has asked yet")
        one.request(.max(1))
        #expect(upstream.subscriptions[0].requests == [.unlimited])
        multicast.subscribe(more)
        for value in 1...3 { upstream.subscriptions[0].send(value) }
        #expect(one.values == [1], "a subscriber without demand misses the values sent meanwhile")
        #expect(more.values == [1, 2, 3], "the demand returned from receive is requested from the subject")
        #expect(one.violations.isEmpty && more.violations.isEmpty)
        #expect(upstream.subscriptions[0].requests == [.unlimited])
    }

    @Test("cancel releases the subscriber and stops values, while the others go on")
    func cancelReleasesSubscriber() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let connection = multicast.connect()
        defer { connection.cancel() }
        expectCancelReleasesSubscriber(subscribe: { multicast.subscribe($0) }, send: upstream.send)
    }

    @Test("a completed subscriber is released too")
    func completionReleasesSubscriber() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let connection = multicast.connect()
        defer { connection.cancel() }
        weak var released: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            released = recorder
            multicast.subscribe(recorder)
            upstream.send(completion: .finished)
            #expect(recorder.completion == .finished)
        }
        #expect(released == nil)
    }

    @Test("the subscription a subscriber gets describes itself as Combine's: Multicast, no children")
    func descriptions() throws {
        let multicast = PassthroughSubject<Int, Never>().multicast { PassthroughSubject<Int, Never>() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        multicast.subscribe(recorder)
        let subscription = try #require(recorder.subscription)
        #expect(String(describing: subscription) == "Multicast")
        #expect((subscription as? CustomReflectable)?.customMirror.children.isEmpty == true)
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Multicast")
    }

    @Test("makeConnectable: nothing before connect, then one upstream subscription for all; each connect subscribes again")
    func makeConnectable() {
        let upstream = ControllablePublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let first = RecordingSubscriber<Int, Never>(), second = RecordingSubscriber<Int, Never>()
        defer { first.cancel(); second.cancel() }
        connectable.subscribe(first)
        connectable.subscribe(second)
        #expect(upstream.subscriptions.isEmpty)
        let connection = connectable.connect()
        #expect(upstream.subscriptions.count == 1)
        upstream.subscriptions[0].send(1)
        #expect(first.values == [1] && second.values == [1])
        connection.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        let again = connectable.connect()
        defer { again.cancel() }
        #expect(upstream.subscriptions.count == 2)
        upstream.subscriptions[1].send(2)
        #expect(first.values == [1, 2])
        #expect(String(describing: first.subscription!) == "Multicast")
    }

    @Test("a connection holds the subject weakly and a subscription strongly, as Combine's: with the multicast gone, the subject lives while subscribed, then goes")
    func connectionHoldsTheSubjectWeakly() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        weak var released: PassthroughSubject<Int, Never>?
        var connection: (any Cancellable)?
        do {
            let subject = PassthroughSubject<Int, Never>()
            released = subject
            connection = upstream.multicast(subject: subject).connect()
        }
        #expect(released == nil, "the upstream's subscriber alone does not keep the subject")
        #expect(upstream.subscriptions.count == 1)
        upstream.subscriptions[0].send(1)   // reaches no subject
        connection?.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)

        // A subscriber keeps the subject (through its subscription) after the multicast is gone.
        let recorder = RecordingSubscriber<Int, Never>()
        weak var kept: PassthroughSubject<Int, Never>?
        let live: (any Cancellable)? = {
            let subject = PassthroughSubject<Int, Never>()
            kept = subject
            let multicast = upstream.multicast(subject: subject)
            multicast.subscribe(recorder)
            return multicast.connect()
        }()
        #expect(kept != nil)
        upstream.subscriptions[1].send(2)
        #expect(recorder.values == [2])
        recorder.cancel()
        #expect(kept == nil, "the subscription's end lets the subject go")
        live?.cancel()
    }

    @Test("a createSubject closure that subscribes to its own multicast traps naming the misuse", .exitTest)
    func reentrantFactoryTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cell = Locked<Publishers.Multicast<Empty<Int, Never>, PassthroughSubject<Int, Never>>?>(nil)
            let multicast = Empty<Int, Never>().multicast { () -> PassthroughSubject<Int, Never> in
                cell.withLock { $0 }?.subscribe(RecordingSubscriber<Int, Never>())
                return PassthroughSubject()
            }
            cell.withLock { $0 = multicast }
            _ = multicast.connect()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Sluice API violation: multicast's createSubject closure subscribed to or connected its own multicast"))
    }
}


/// Subscribes two recorders through `subscribe`, sends 1, cancels one, sends 2: the
/// cancelled one has only 1 and has been released; the other has both.
func expectCancelReleasesSubscriber(
    subscribe: (RecordingSubscriber<Int, Never>) -> Void, send: (Int) -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let other = RecordingSubscriber<Int, Never>()
    defer { other.cancel() }
    subscribe(other)
    weak var released: RecordingSubscriber<Int, Never>?
    do {
        let recorder = RecordingSubscriber<Int, Never>()
        released = recorder
        subscribe(recorder)
        send(1)
        recorder.cancel()
        send(2)
        #expect(recorder.values == [1], sourceLocation: sourceLocation)
    }
    #expect(released == nil, sourceLocation: sourceLocation)
    #expect(other.values == [1, 2], sourceLocation: sourceLocation)
}
