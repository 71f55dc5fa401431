import Sluice
import SluiceExt
import SluiceTesting
import Synchronization
import Testing

@Suite("ReplaySubject and share(replay:) (CombineExt)")
struct ReplaySubjectTests {
    @Test("CombineExt ReplaySubject: a new subscriber gets the last bufferSize values, then the live ones")
    func replaysTheLastValues() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        subject.send(4)
        #expect(recorder.values == [2, 3, 4])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("ReplaySubject replays within the subscriber's demand, and keeps live values for it until it has demand (CombineExt's demand buffer)")
    func replayWithinDemand() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        for value in 1...3 { subject.send(value) }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(recorder)
        #expect(recorder.values == [1])
        subject.send(4)
        #expect(recorder.values == [1])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3])
        recorder.request(.max(5))
        #expect(recorder.values == [1, 2, 3, 4])
        subject.send(5)
        #expect(recorder.values == [1, 2, 3, 4, 5])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("CombineExt ReplaySubject: after completion a new subscriber gets the kept values, then the completion")
    func completionReplayedAfterTheBuffer() {
        let subject = ReplaySubject<Int, Oops>(bufferSize: 2)
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .failure(Oops()))
        subject.send(4)  // after completion: nothing
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .max(1))
        subject.subscribe(recorder)
        #expect(recorder.values == [2])
        #expect(recorder.completion == nil)  // after the backlog, which waits for demand
        recorder.request(.max(1))
        #expect(recorder.values == [2, 3])
        #expect(recorder.completion == .failure(Oops()))
        #expect(recorder.violations.isEmpty)
    }

    @Test("ReplaySubject: a completion needs no demand; with an empty backlog it is delivered at once, even to a subscriber that requested nothing")
    func completionWithoutDemand() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 0)
        subject.send(1)
        let live = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(live)
        subject.send(completion: .finished)
        let late = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(late)
        #expect(live.values.isEmpty)
        #expect(live.completion == .finished)
        #expect(late.completion == .finished)
        #expect(late.events.count == 2)  // subscription, then completion
    }

    @Test("ReplaySubject: a send from inside a subscriber's receive is delivered to it after that receive returns")
    func reentrantSend() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let recorder = RecordingSubscriber<Int, Never>()
        let shared = Shared(subject)
        recorder.onValue { value in
            if value < 3 { shared.value.send(value + 1) }
            return .none
        }
        subject.subscribe(recorder)
        subject.send(1)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("ReplaySubject: a request from inside receive adds demand without recursing, over a long replay")
    func reentrantRequestStaysFlat() {
        let count = 50_000
        let subject = ReplaySubject<Int, Never>(bufferSize: count)
        for value in 0..<count { subject.send(value) }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.subscribe(recorder)
        #expect(recorder.valueCount == count)
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("ReplaySubject requests .unlimited from an upstream at once and cancels it when deinitialized")
    func upstreamSubscription() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        do {
            let subject = ReplaySubject<Int, Never>(bufferSize: 1)
            let cancellable = upstream.subscribe(subject)
            #expect(upstream.subscriptions[0].requests == [.unlimited])
            _ = upstream.subscriptions[0].send(1)
            let recorder = RecordingSubscriber<Int, Never>()
            subject.subscribe(recorder)
            #expect(recorder.values == [1])
            recorder.cancel()
            withExtendedLifetime(cancellable) {}
        }
        #expect(upstream.subscriptions[0].cancelCount >= 1)
    }

    @Test("ReplaySubject: cancel stops delivery and releases the subscriber; the subject is released too")
    func cancelReleases() {
        var weakRecorder: Weak<RecordingSubscriber<Int, Never>>?
        var weakSubject: Weak<ReplaySubject<Int, Never>>?
        do {
            let subject = ReplaySubject<Int, Never>(bufferSize: 2)
            weakSubject = Weak(subject)
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = Weak(recorder)
            subject.subscribe(recorder)
            subject.send(1)
            recorder.cancel()
            subject.send(2)
            #expect(recorder.values == [1])
        }
        #expect(weakRecorder?.object == nil)
        #expect(weakSubject?.object == nil)
    }

    @Test("ReplaySubject: after a send and the completion, a subscriber and the subject are released (nothing of the send is kept)")
    func completionReleases() {
        var weakRecorder: Weak<RecordingSubscriber<Int, Never>>?
        var weakSubject: Weak<ReplaySubject<Int, Never>>?
        do {
            let subject = ReplaySubject<Int, Never>(bufferSize: 1)
            weakSubject = Weak(subject)
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = Weak(recorder)
            subject.subscribe(recorder)
            subject.send(1)
            subject.send(completion: .finished)
            #expect(recorder.values == [1])
            #expect(recorder.completion == .finished)
        }
        #expect(weakRecorder?.object == nil, "the recorder keeps its subscription, which must not keep it in turn")
        #expect(weakSubject?.object == nil)
    }

    @Test("ReplaySubject under concurrent sends: every subscriber gets every value once, in each sender's order, never overlapping, then the completion")
    func concurrentSends() {
        let senders = 4
        let perSender = StressBudget.scaled(20_000) / senders
        let subject = ReplaySubject<Tagged, Never>(bufferSize: 8)
        let recorders = (0..<2).map { _ in RecordingSubscriber<Tagged, Never>() }
        for recorder in recorders { subject.subscribe(recorder) }
        runConcurrently(threads: senders) { sender in
            for rank in 0..<perSender { subject.send(Tagged(sender: sender, rank: rank)) }
        }
        subject.send(completion: .finished)
        for recorder in recorders {
            let (inOrder, counts) = perSenderOrder(recorder.values, senders: senders)
            #expect(inOrder)
            #expect(counts == [Int](repeating: perSender, count: senders))
            #expect(recorder.completion == .finished)
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test("ReplaySubject: sends racing with one-at-a-time requests from another thread never exceed the demand and lose nothing")
    func sendsRacingWithRequests() {
        let perSender = StressBudget.scaled(10_000)
        let subject = ReplaySubject<Tagged, Never>(bufferSize: 4)
        let recorder = RecordingSubscriber<Tagged, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        runConcurrently(threads: 3) { thread in
            if thread == 2 {
                for _ in 0..<perSender { recorder.request(.max(1)) }
            } else {
                for rank in 0..<perSender { subject.send(Tagged(sender: thread, rank: rank)) }
            }
        }
        #expect(recorder.valueCount == perSender)  // the demand, exactly
        recorder.request(.unlimited)
        let (inOrder, counts) = perSenderOrder(recorder.values, senders: 2)
        #expect(inOrder)
        #expect(counts == [perSender, perSender])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("ReplaySubject: subscribers arriving and cancelling on many threads while others send never see a signal out of contract, and every one is released")
    func subscribeAndCancelRacingWithSends() {
        let rounds = StressBudget.scaled(2_000)
        let subject = ReplaySubject<Int, Never>(bufferSize: 4)
        let released = Locked<[Weak<RecordingSubscriber<Int, Never>>]>([])
        let violations = Locked<[String]>([])
        runConcurrently(threads: 4) { thread in
            for round in 0..<rounds {
                if thread < 2 {
                    subject.send(round)
                } else {
                    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
                    subject.subscribe(recorder)
                    recorder.request(.max(1))
                    recorder.cancel()
                    violations.withLock { $0 += recorder.violations }
                    released.withLock { $0.append(Weak(recorder)) }
                }
            }
        }
        #expect(violations.withLock { $0 }.isEmpty)
        #expect(released.withLock { $0 }.allSatisfy { $0.object == nil })
    }

    @Test("ReplaySubject: two cancels racing while a sender delivers both return only once delivery has stopped (rule 4)")
    func racingCancelsBothStopDelivery() {
        let rounds = StressBudget.scaled(3_000)
        let violations = Locked<[String]>([])
        for _ in 0..<rounds {
            let subject = ReplaySubject<Int, Never>(bufferSize: 0)
            let recorder = RecordingSubscriber<Int, Never>()
            subject.subscribe(recorder)
            let cancelled = Atomic(0)
            runConcurrently(threads: 3) { thread in
                if thread == 0 {
                    var value = 0
                    while cancelled.load(ordering: .acquiring) < 2 {
                        subject.send(value)
                        value += 1
                    }
                } else {
                    recorder.cancel()
                    cancelled.add(1, ordering: .releasing)
                }
            }
            violations.withLock { $0 += recorder.violations }
        }
        #expect(violations.withLock { $0 }.isEmpty)
    }

    @Test("CombineExt share(replay:) over a synchronous publisher: a late subscriber gets the last values and the finish")
    func shareReplaySynchronous() {
        let shared = [1, 2, 3].publisher.share(replay: 2)
        let first = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        let late = RecordingSubscriber<Int, Never>()
        shared.subscribe(late)
        #expect(first.values == [1, 2, 3])
        #expect(first.completion == .finished)
        #expect(late.values == [2, 3])
        #expect(late.completion == .finished)
    }

    @Test("CombineExt share(replay:): one upstream subscription for all subscribers; a second subscriber gets the replay then live values; the last cancel cancels the upstream")
    func shareReplayShares() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let shared = upstream.share(replay: 1)
        let first = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        #expect(upstream.subscriptions.count == 1)
        _ = upstream.subscriptions[0].send(1)
        _ = upstream.subscriptions[0].send(2)
        let second = RecordingSubscriber<Int, Never>()
        shared.subscribe(second)
        _ = upstream.subscriptions[0].send(3)
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [2, 3])
        #expect(upstream.subscriptions.count == 1)
        first.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 0)
        second.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
    }
}
