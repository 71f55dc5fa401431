import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("AnyPublisher.create / Publishers.Create (CombineExt)")
struct CreateTests {
    @Test("values sent beyond demand wait in the buffer and go out, in order, as the subscriber asks")
    func buffersBeyondDemand() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        AnyPublisher<Int, Never>.create { subscriber in
            (1...4).forEach(subscriber.send)
            return AnyCancellable {}
        }.subscribe(recorder)
        #expect(recorder.values == [1])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3])
        recorder.request(.max(5))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.completion == nil)
        recorder.cancel()
    }

    @Test("a finish waits for the buffered values; a failure goes out at once, dropping them")
    func endings() {
        let finishing = RecordingSubscriber<Int, Oops>(initialDemand: .max(1))
        let failing = RecordingSubscriber<Int, Oops>(initialDemand: .max(1))
        let body: Publishers.Create<Int, Oops>.SubscriberHandler = { subscriber in
            subscriber.send(1)
            subscriber.send(2)
            return AnyCancellable {}
        }
        Publishers.Create(factory: { subscriber in
            _ = body(subscriber)
            subscriber.send(completion: .finished)
            subscriber.send(3)   // after the completion: ignored
            return AnyCancellable {}
        }).subscribe(finishing)
        Publishers.Create(factory: { subscriber in
            _ = body(subscriber)
            subscriber.send(completion: .failure(Oops()))
            return AnyCancellable {}
        }).subscribe(failing)
        #expect(finishing.values == [1])
        #expect(finishing.completion == nil)
        finishing.request(.max(5))
        #expect(finishing.values == [1, 2])
        #expect(finishing.completion == .finished)
        #expect(failing.values == [1])
        #expect(failing.completion == .failure(Oops()))
    }

    @Test("the factory runs once per subscription, after the subscriber has its subscription")
    func factoryPerSubscription() {
        let runs = Locked(0)
        let publisher = AnyPublisher<Int, Never> { subscriber in
            let run = runs.withLock { runs in
                runs += 1
                return runs
            }
            subscriber.send(run)
            return AnyCancellable {}
        }
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.values == [1])
        #expect(second.values == [2])
        #expect(first.events.first == .subscription)
        first.cancel()
        second.cancel()
    }

    @Test("the returned cancellable runs once: on cancel, on a delivered completion, or at once for a cancel during the factory")
    func cleanup() {
        let cleanups = Locked(0)
        let count: @Sendable () -> Void = { cleanups.withLock { $0 += 1 } }
        let cancelled = RecordingSubscriber<Int, Never>()
        AnyPublisher<Int, Never>.create { _ in AnyCancellable(count) }.subscribe(cancelled)
        #expect(cleanups.withLock { $0 } == 0)
        cancelled.cancel()
        cancelled.cancel()
        #expect(cleanups.withLock { $0 } == 1)

        let finished = RecordingSubscriber<Int, Never>(initialDemand: .none)
        AnyPublisher<Int, Never>.create { subscriber in
            subscriber.send(1)
            subscriber.send(completion: .finished)
            return AnyCancellable(count)
        }.subscribe(finished)
        #expect(cleanups.withLock { $0 } == 1)   // the finish waits behind the buffered value
        finished.request(.max(1))
        #expect(finished.completion == .finished)
        #expect(cleanups.withLock { $0 } == 2)

        let early = RecordingSubscriber<Int, Never>()
        AnyPublisher<Int, Never>.create { _ in
            early.cancel()   // the subscription ends before the factory returns
            #expect(cleanups.withLock { $0 } == 2)
            return AnyCancellable(count)
        }.subscribe(early)
        #expect(cleanups.withLock { $0 } == 3)
    }

    @Test("after a cancel, sends are dropped and nothing keeps the subscriber")
    func cancelReleases() {
        var handle: Publishers.Create<Int, Never>.Subscriber?
        var recorder: RecordingSubscriber<Int, Never>? = RecordingSubscriber()
        let watched = Weak(recorder!)
        AnyPublisher<Int, Never>.create { subscriber in
            handle = subscriber
            return AnyCancellable {}
        }.subscribe(recorder!)
        handle?.send(1)
        recorder?.cancel()
        handle?.send(2)
        #expect(recorder?.values == [1])
        recorder = nil
        #expect(watched.object == nil)
        handle = nil
    }

    @Test("sends from several threads each reach the subscriber once, in each sender's order")
    func concurrentSends() {
        let senders = 4
        let perSender = StressBudget.scaled(8_000) / senders
        let recorder = RecordingSubscriber<Tagged, Never>()
        let handle = Locked<Publishers.Create<Tagged, Never>.Subscriber?>(nil)
        AnyPublisher<Tagged, Never>.create { subscriber in
            handle.withLock { $0 = subscriber }
            return AnyCancellable {}
        }.subscribe(recorder)
        let subscriber = handle.withLock { $0 }!
        runConcurrently(threads: senders) { sender in
            for rank in 0..<perSender { subscriber.send(Tagged(sender: sender, rank: rank)) }
        }
        let (inOrder, counts) = perSenderOrder(recorder.values, senders: senders)
        #expect(inOrder)
        #expect(counts == Array(repeating: perSender, count: senders))
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }
}
