import Testing
import Sluice
import SluiceTesting

/// A connectable publisher over a subject that counts its connects and their cancels, and
/// records how each subscriber it is given describes itself.
private final class CountingConnectable: ConnectablePublisher {
    typealias Output = Int
    typealias Failure = Never

    let subject = PassthroughSubject<Int, Never>()
    let counts = Locked((subscribers: 0, connects: 0, disconnects: 0, subscribersAtConnect: [Int]()))
    let described = Locked<[(description: String, labels: [String?])]>([])

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let labels = (subscriber as? CustomReflectable)?.customMirror.children.map(\.label) ?? []
        described.withLock { $0.append((String(describing: subscriber), labels)) }
        subject.receive(subscriber: subscriber)
        counts.withLock { $0.subscribers += 1 }
    }

    func connect() -> any Cancellable {
        counts.withLock { counts in
            counts.connects += 1
            counts.subscribersAtConnect.append(counts.subscribers)
        }
        return AnyCancellable { [counts] in counts.withLock { $0.disconnects += 1 } }
    }

    var connects: Int { counts.withLock { $0.connects } }
    var disconnects: Int { counts.withLock { $0.disconnects } }
}

@Suite("autoconnect: connects for the first subscriber, disconnects when the last cancels")
struct AutoconnectTests {
    @Test("the first subscriber is subscribed, then the upstream connected; later ones share that connection")
    func connectsOnceForTheFirst() {
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        let first = RecordingSubscriber<Int, Never>(), second = RecordingSubscriber<Int, Never>()
        defer { first.cancel(); second.cancel() }
        #expect(upstream.connects == 0)
        auto.subscribe(first)
        #expect(upstream.connects == 1)
        #expect(upstream.counts.withLock { $0.subscribersAtConnect } == [1], "subscribed before the connect")
        auto.subscribe(second)
        #expect(upstream.connects == 1)
        upstream.subject.send(1)
        #expect(first.values == [1] && second.values == [1])
    }

    @Test("it disconnects when the last subscriber cancels, not before, and a later subscriber connects again")
    func disconnectsWithTheLastAndReconnects() {
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        let first = RecordingSubscriber<Int, Never>(), second = RecordingSubscriber<Int, Never>()
        auto.subscribe(first)
        auto.subscribe(second)
        first.cancel()
        first.subscription?.cancel()   // a second cancel of the same subscriber counts once
        #expect(upstream.disconnects == 0)
        second.cancel()
        #expect(upstream.disconnects == 1)
        let third = RecordingSubscriber<Int, Never>()
        auto.subscribe(third)
        #expect(upstream.connects == 2 && upstream.disconnects == 1)
        third.cancel()
        #expect(upstream.disconnects == 2)
    }

    @Test("a completion does not end a subscriber's count, as in Combine: the connection stays until they cancel")
    func completionKeepsTheConnection() {
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        let recorder = RecordingSubscriber<Int, Never>()
        auto.subscribe(recorder)
        upstream.subject.send(completion: .finished)
        #expect(recorder.completion == .finished)
        #expect(upstream.disconnects == 0)
        recorder.subscription?.cancel()
        #expect(upstream.disconnects == 1)
    }

    @Test("a subscriber that cancels inside receive(subscription:) leaves before the connect returns: that connection is cancelled at once")
    func cancelBeforeConnectReturns() {
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        auto.subscribe(AnySubscriber<Int, Never>(receiveSubscription: { $0.cancel() }))
        #expect(upstream.connects == 1 && upstream.disconnects == 1)
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        auto.subscribe(recorder)
        #expect(upstream.connects == 2 && upstream.disconnects == 1, "the next subscriber connects anew")
        upstream.subject.send(1)
        #expect(recorder.values == [1])
    }

    @Test("a subscriber arriving inside the first one's receive(subscription:) shares its connection (Combine would connect twice)")
    func reentrantSubscribeConnectsOnce() {
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        let inner = RecordingSubscriber<Int, Never>()
        auto.subscribe(AnySubscriber<Int, Never>(receiveSubscription: { subscription in
            auto.subscribe(inner)
            subscription.cancel()
        }))
        #expect(upstream.connects == 1 && upstream.disconnects == 0)
        inner.cancel()
        #expect(upstream.connects == 1 && upstream.disconnects == 1)
    }

    @Test("values and demand pass straight through; the subscription stands for the upstream's, and the upstream sees an Autoconnect")
    func passThroughAndDescriptions() throws {
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        auto.subscribe(recorder)
        upstream.subject.send(1)
        upstream.subject.send(2)
        #expect(recorder.values == [1])
        #expect(recorder.violations.isEmpty)
        let subscription = try #require(recorder.subscription)
        #expect(String(describing: subscription) == "PassthroughSubject")
        let seen = try #require(upstream.described.withLock { $0.first })
        #expect(seen.description == "Autoconnect")
        #expect(seen.labels == ["parent", "downstream"])
    }
}

@Suite("share: one upstream subscription for the subscribers it has at a time")
struct ShareTests {
    @Test("concurrent subscribers share one upstream subscription; a late one misses what came before it")
    func sharedAndLate() {
        let upstream = ControllablePublisher<Int, Never>()
        let shared = upstream.share()
        let early = RecordingSubscriber<Int, Never>(), late = RecordingSubscriber<Int, Never>()
        defer { early.cancel(); late.cancel() }
        shared.subscribe(early)
        upstream.subscriptions[0].send(1)
        shared.subscribe(late)
        upstream.subscriptions[0].send(2)
        #expect(upstream.subscriptions.count == 1)
        #expect(early.values == [1, 2] && late.values == [2])
        #expect(String(describing: early.subscription!) == "Multicast")
    }

    @Test("when every subscriber has cancelled the upstream subscription is cancelled; the next subscriber subscribes the upstream again")
    func resubscribesAfterAllLeft() {
        let upstream = ControllablePublisher<Int, Never>()
        let shared = upstream.share()
        let first = RecordingSubscriber<Int, Never>(), second = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        first.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 0)
        second.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        let third = RecordingSubscriber<Int, Never>()
        defer { third.cancel() }
        shared.subscribe(third)
        #expect(upstream.subscriptions.count == 2)
        upstream.subscriptions[1].send(3)
        #expect(third.values == [3] && first.values.isEmpty)
    }

    @Test("after the upstream completes, a later subscriber gets the completion at once and the upstream is not run again, as in Combine")
    func afterCompletion() {
        let upstream = ControllablePublisher<Int, Never>()
        let shared = upstream.share()
        let first = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(completion: .finished)
        let later = RecordingSubscriber<Int, Never>()
        shared.subscribe(later)
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        #expect(later.events == [.subscription, .completion(.finished)])
        #expect(upstream.subscriptions.count == 1)
    }

    @Test("demand: nothing is requested until a subscriber asks, then .unlimited once; each subscriber gets what it has demand for")
    func demand() {
        let upstream = ControllablePublisher<Int, Never>()
        let shared = upstream.share()
        let one = RecordingSubscriber<Int, Never>(initialDemand: .none)
        let all = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { one.cancel(); all.cancel() }
        shared.subscribe(one)
        shared.subscribe(all)
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscriptions[0].requests.isEmpty)
        one.request(.max(1))
        all.request(.unlimited)
        #expect(upstream.subscriptions[0].requests == [.unlimited])
        for value in 1...3 { upstream.subscriptions[0].send(value) }
        #expect(one.values == [1] && all.values == [1, 2, 3])
        #expect(one.violations.isEmpty && all.violations.isEmpty)
    }

    @Test("a cancelled subscriber is released and gets nothing more")
    func cancelReleases() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share()
        expectCancelReleasesSubscriber(subscribe: { shared.subscribe($0) }, send: upstream.send)
    }

    @Test("== is identity")
    func equatable() {
        let upstream = PassthroughSubject<Int, Never>()
        let one = upstream.share(), other = upstream.share()
        #expect([other, one].firstIndex(of: one) == 1, "a share is not equal to itself")
        #expect(one != other)
    }
}
