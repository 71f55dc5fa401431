import Dispatch
import Sluice
import SluiceTesting
import Synchronization
import Testing

private struct Oops: Error, Equatable {}

@Suite(.timeLimit(.minutes(12))) struct AnyCancellableTests {
    @Test func cancelRunsTheClosureExactlyOnceAndDeinitDoesNotRunItAgain() {
        let count = Atomic<Int>(0)
        do {
            let cancellable = AnyCancellable { count.wrappingAdd(1, ordering: .relaxed) }
            cancellable.cancel()
            cancellable.cancel()
        }
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test("cancel lets go of the closure, and of what it captured, while the cancellable lives on")
    func cancelReleasesTheClosure() {
        final class Captured: Sendable {}
        weak var weakCaptured: Captured?
        let cancellable: AnyCancellable = {
            let captured = Captured()
            weakCaptured = captured
            return AnyCancellable { _ = captured }
        }()
        #expect(weakCaptured != nil)
        cancellable.cancel()
        #expect(weakCaptured == nil)
    }

    @Test func deinitCancels() {
        let count = Atomic<Int>(0)
        do {
            _ = AnyCancellable { count.wrappingAdd(1, ordering: .relaxed) }
        }
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test func wrappingACancellableCancelsIt() {
        let publisher = ControllablePublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        publisher.subscribe(sink)
        do { _ = AnyCancellable(sink) }
        #expect(publisher.subscriptions[0].cancelCount == 1)
    }

    @Test func storeInSetAndArrayKeepsItAliveUntilRemoved() {
        let count = Atomic<Int>(0)
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        AnyCancellable { count.wrappingAdd(1, ordering: .relaxed) }.store(in: &set)
        AnyCancellable { count.wrappingAdd(1, ordering: .relaxed) }.store(in: &array)
        #expect(set.count == 1 && array.count == 1)
        #expect(count.load(ordering: .relaxed) == 0)
        set.removeAll()
        array.removeAll()
        #expect(count.load(ordering: .relaxed) == 2)
    }

    @Test func hashableByIdentity() {
        let a = AnyCancellable {}
        let b = AnyCancellable {}
        #expect(a != b)
        #expect(Set([a, a, b]).count == 2)
    }

    @Test func concurrentCancelFromManyThreadsRunsTheClosureOnce() {
        for _ in 0..<StressBudget.scaled(2_000) {
            let count = Atomic<Int>(0)
            let cancellable = AnyCancellable { count.wrappingAdd(1, ordering: .relaxed) }
            runConcurrently(threads: 4) { _ in cancellable.cancel() }
            #expect(count.load(ordering: .relaxed) == 1)
        }
    }
}

/// A minimal subject for the `AnySubscriber(subject)` initialiser.
private final class LoggingSubject: Subject {
    typealias Output = Int
    typealias Failure = Oops
    let log = Locked<[String]>([])
    func send(_ value: Int) { log.withLock { $0.append("value \(value)") } }
    func send(completion: Subscribers.Completion<Oops>) { log.withLock { $0.append("completion") } }
    func send(subscription: any Subscription) {
        log.withLock { $0.append("subscription \(subscription)") }
        subscription.request(.unlimited)
    }
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Oops {}
}

@Suite(.timeLimit(.minutes(12))) struct AnySubscriberTests {
    @Test func wrappingASubscriberForwardsEverythingAndKeepsItsIdentity() {
        let recorder = RecordingSubscriber<Int, Never>()
        let erased = AnySubscriber(recorder)
        #expect(erased.combineIdentifier == recorder.combineIdentifier)
        #expect(AnySubscriber(erased).combineIdentifier == erased.combineIdentifier)
        #expect(erased.description == "RecordingSubscriber")
        Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(erased)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func closureInitialiserRunsTheClosuresAndDefaultsToNoDemand() {
        let log = Locked<[String]>([])
        let publisher = ControllablePublisher<Int, Oops>()
        let subscriber = AnySubscriber<Int, Oops>(
            receiveSubscription: { $0.request(.max(2)); log.withLock { $0.append("subscription") } },
            receiveValue: { value in log.withLock { $0.append("value \(value)") }; return .max(1) },
            receiveCompletion: { _ in log.withLock { $0.append("completion") } })
        publisher.subscribe(subscriber)
        let subscription = publisher.subscriptions[0]
        #expect(subscription.send(1) == .max(1))
        subscription.send(completion: .failure(Oops()))
        #expect(log.withLock { $0 } == ["subscription", "value 1", "completion"])
        #expect(subscription.requests == [.max(2)])
        #expect(subscriber.description == "Anonymous AnySubscriber")

        let silent = AnySubscriber<Int, Oops>()
        publisher.subscribe(silent)
        #expect(publisher.subscriptions[1].send(1) == .none)
    }

    @Test func subjectInitialiserForwardsToTheSubject() {
        let subject = LoggingSubject()
        let erased = AnySubscriber(subject)
        Record<Int, Oops>(output: [1], completion: .failure(Oops())).subscribe(erased)
        #expect(subject.log.withLock { $0 } == ["subscription Subject", "value 1", "completion"])
        #expect(String(describing: erased) == "Subject")   // as Combine prints it
        #expect(String(describing: AnySubscriber(PassthroughSubject<Int, Never>())) == "Subject")
    }

    @Test("mirrors what it wraps, as Combine's: a closure-made one as a string, a subject's as SubjectSubscriber<Subject>, a subscriber as itself")
    func mirrors() {
        let anonymous = Mirror(reflecting: AnySubscriber<Int, Oops>())
        #expect(String(describing: anonymous.subjectType) == "String" && anonymous.children.isEmpty)
        let subject = Mirror(reflecting: AnySubscriber(PassthroughSubject<Int, Oops>()))
        #expect(String(describing: subject.subjectType) == "SubjectSubscriber<PassthroughSubject<Int, Oops>>")
        #expect(subject.children.map(\.label) == ["downstreamSubject", "upstreamSubscription"])
        let recorder = RecordingSubscriber<Int, Oops>()
        #expect(String(describing: Mirror(reflecting: AnySubscriber(recorder)).subjectType) == "RecordingSubscriber<Int, Oops>")
    }
}

extension AnySubscriberTests {
    @Test("AnySubscriber(subject) passes the subject its first subscription only, and nothing after the first completion, as Combine's")
    func subjectInitialiserTakesOneStream() {
        let subject = LoggingSubject()
        let erased = AnySubscriber(subject)
        let first = ControllablePublisher<Int, Oops>()
        defer { first.detachAll() }
        let second = ControllablePublisher<Int, Oops>()
        defer { second.detachAll() }
        first.subscribe(erased)
        second.subscribe(erased)
        #expect(second.subscriptions[0].cancelCount == 1, "a second subscription is cancelled")
        _ = erased.receive(1)
        erased.receive(completion: .finished)
        erased.receive(completion: .failure(Oops()))
        #expect(erased.receive(2) == .none)
        #expect(subject.log.withLock { $0 } == ["subscription Subject", "value 1", "completion"])
    }
}

@Suite(.timeLimit(.minutes(12))) struct AnyPublisherTests {
    @Test func erasedPublisherBehavesLikeTheWrappedOne() {
        let erased = Record<Int, Never>(output: [1, 2, 3], completion: .finished).eraseToAnyPublisher()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        erased.subscribe(recorder)
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2])
        #expect(erased.description == "AnyPublisher")
        recorder.cancel()  // the subscription and the recorder hold each other until then
    }

    @Test func erasingAnErasedPublisherDoesNotWrapAgain() {
        let erased = Just(1).eraseToAnyPublisher()
        let twice = AnyPublisher(erased)
        let recorder = RecordingSubscriber<Int, Never>()
        twice.subscribe(recorder)
        #expect(recorder.values == [1])
        #expect(String(describing: recorder.subscription!) == "Just")
    }
}

@Suite(.timeLimit(.minutes(12))) struct SinkTests {
    @Test func secondSubscriptionIsCancelled() {
        let first = ControllablePublisher<Int, Never>()
        let second = ControllablePublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        first.subscribe(sink)
        second.subscribe(sink)
        #expect(first.subscriptions[0].requests == [.unlimited])
        #expect(second.subscriptions[0].cancelCount == 1)
        #expect(second.subscriptions[0].requests.isEmpty)
        sink.cancel()  // the first subscription and the sink hold each other until then
    }

    @Test func nothingReachesTheClosuresAfterCancel() {
        let values = Locked<[Int]>([])
        let completions = Atomic<Int>(0)
        let publisher = ControllablePublisher<Int, Never>()
        let cancellable = publisher.sink(
            receiveCompletion: { _ in completions.wrappingAdd(1, ordering: .relaxed) },
            receiveValue: { value in values.withLock { $0.append(value) } })
        let subscription = publisher.subscriptions[0]
        _ = subscription.send(1)
        cancellable.cancel()
        cancellable.cancel()
        _ = subscription.send(2)
        subscription.send(completion: .finished)
        #expect(values.withLock { $0 } == [1])
        #expect(completions.load(ordering: .relaxed) == 0)
        #expect(subscription.cancelCount == 1)
    }

    @Test func completionRunsOnce() {
        let completions = Atomic<Int>(0)
        let publisher = ControllablePublisher<Int, Never>()
        let cancellable = publisher.sink(
            receiveCompletion: { _ in completions.wrappingAdd(1, ordering: .relaxed) },
            receiveValue: { _ in })
        let subscription = publisher.subscriptions[0]
        subscription.send(completion: .finished)
        subscription.send(completion: .finished)
        #expect(completions.load(ordering: .relaxed) == 1)
        cancellable.cancel()
        #expect(subscription.cancelCount == 0)
    }

    @Test func sinkOnJustReceivesTheValueAndFinishes() {
        let values = Locked<[Int]>([])
        let finished = Atomic<Bool>(false)
        let cancellable = Just(4).sink(
            receiveCompletion: { _ in finished.store(true, ordering: .relaxed) },
            receiveValue: { value in values.withLock { $0.append(value) } })
        #expect(values.withLock { $0 } == [4])
        let didFinish = finished.load(ordering: .relaxed)
        #expect(didFinish)
        _ = cancellable
    }
}
