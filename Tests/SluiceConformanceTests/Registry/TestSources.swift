@_spi(Internals) import Sluice
import SluiceTesting

// The pieces registry entries are made of: an adapter that lets a `Never`-failing publisher
// join the registry, an async sequence, and the bodies that drive `Create`, `Producer` and the
// subjects as finite, failing or never-ending sources.

extension Publisher where Output == Int, Failure == Never {
    /// This publisher with the registry's failure type; it adds no subscription of its own
    /// (the subscriber gets this publisher's subscription), so every rule still tests it.
    func widened() -> WidenedFailure<Self> { WidenedFailure(upstream: self) }
}

/// A `Never`-failing publisher seen as failing with ``TestFailure`` (what Combine's
/// `setFailureType` does); it wraps only the subscriber, in a forwarding struct.
struct WidenedFailure<Upstream: Publisher>: Publisher where Upstream.Output == Int, Upstream.Failure == Never {
    typealias Output = Int
    typealias Failure = TestFailure
    let upstream: Upstream

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestFailure {
        upstream.subscribe(NeverFailing(downstream: subscriber))
    }

    /// Forwards every signal unchanged; a `Never` completion can only be `.finished`.
    struct NeverFailing<Downstream: Subscriber>: Subscriber where Downstream.Input == Int,
        Downstream.Failure == TestFailure
    {
        typealias Input = Int
        typealias Failure = Never
        let downstream: Downstream
        var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
        func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
        func receive(_ input: Int) -> Subscribers.Demand { downstream.receive(input) }
        func receive(completion: Subscribers.Completion<Never>) { downstream.receive(completion: .finished) }
    }
}

/// Suspends until the current task is cancelled, holding no thread (for never-ending bodies).
func suspendUntilCancelled() async {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    for await _ in stream {}  // ends when the task is cancelled
    withExtendedLifetime(continuation) {}
}

/// `0..<count` as an async sequence with a typed failure, that then finishes, fails, or
/// suspends until its task is cancelled.
struct Numbers: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = TestFailure
    let count: Int
    let ending: Entry.Ending

    struct AsyncIterator: AsyncIteratorProtocol {
        let count: Int
        let ending: Entry.Ending
        var index = 0

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestFailure) -> Int? {
            if index < count {
                defer { index += 1 }
                return index
            }
            switch ending {
            case .finished: return nil
            case .failure: throw TestFailure()
            case .never:
                await suspendUntilCancelled()
                return nil
            }
        }

        mutating func next() async throws(TestFailure) -> Int? { try await next(isolation: nil) }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count, ending: ending) }
}

/// ``Numbers`` as a sequence that is not `Sendable` (its iterator is a class instance), made
/// and iterated on an actor: what `IsolatedAsyncSequencePublisher` publishes.
struct ActorBoundNumbers: AsyncSequence {
    typealias Element = Int
    typealias Failure = TestFailure
    let numbers: Numbers

    final class AsyncIterator: AsyncIteratorProtocol {
        var base: Numbers.AsyncIterator

        init(_ base: Numbers.AsyncIterator) { self.base = base }

        func next(isolation actor: isolated (any Actor)?) async throws(TestFailure) -> Int? {
            try await base.next(isolation: actor)
        }

        func next() async throws(TestFailure) -> Int? { try await base.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(numbers.makeAsyncIterator()) }
}

@available(*, unavailable)
extension ActorBoundNumbers: Sendable {}

@available(*, unavailable)
extension ActorBoundNumbers.AsyncIterator: Sendable {}

/// The values `0..<count` that a ``Bodies/create(count:ending:)`` body hands out, under its lock.
struct CreateSource {
    let count: Int
    private var next = 0
    /// Values refused by `send`, to go first.
    private var returned: [Int] = []
    /// Values taken and not yet settled: sent or put back.
    private var out = 0
    private var finished = false

    init(count: Int) { self.count = count }

    /// The next value to send, taken out; nil when none is left to take.
    mutating func take() -> Int? {
        let value: Int
        if !returned.isEmpty {
            value = returned.removeFirst()
        } else if next < count {
            value = next
            next += 1
        } else {
            return nil
        }
        out += 1
        return value
    }

    /// `send` accepted `value`, or refused it: then it goes back, to be sent first.
    mutating func settle(_ value: Int, sent: Bool) {
        out -= 1
        if !sent { returned.insert(value, at: 0) }
    }

    /// True exactly once: when every value has been sent.
    mutating func finishIfDone() -> Bool {
        guard !finished, next == count, returned.isEmpty, out == 0 else { return false }
        finished = true
        return true
    }
}

enum Bodies {
    /// A `Create` body sending `0..<count` as demand comes, then the ending.
    ///
    /// `onRequest` runs re-entrantly and on several threads at once, so the body follows the
    /// pattern `Create.Emitter.onRequest` documents: a value is taken out of the shared
    /// ``CreateSource`` before it is sent and put back when `send` refuses it; the thread whose
    /// value was refused sends it again if demand came meanwhile (that request's `onRequest`
    /// found nothing to take); and the ending is sent once no value is out.
    static func create(count: Int, ending: Entry.Ending) -> Publishers.Create<Int, TestFailure> {
        Publishers.Create { producer in
            let source = Locked(CreateSource(count: count))
            let completeIfDone: @Sendable () -> Void = {
                guard source.withLock({ $0.finishIfDone() }) else { return }
                switch ending {
                case .finished: producer.send(completion: .finished)
                case .failure: producer.send(completion: .failure(TestFailure()))
                case .never: break
                }
            }
            producer.onRequest { _ in
                while let value = source.withLock({ $0.take() }) {
                    let sent = producer.send(value)
                    source.withLock { $0.settle(value, sent: sent) }
                    if !sent && producer.demand == .none { return }
                }
                completeIfDone()
            }
            completeIfDone()   // `count == 0`: nothing to wait for
        }
    }

    /// A `Producer` body sending `0..<count`, then the ending.
    static func producer(count: Int, ending: Entry.Ending) -> Producer<Int, TestFailure> {
        Producer { (sender) throws(TestFailure) in
            for value in 0..<count {
                guard await sender.send(value) else { return }
            }
            switch ending {
            case .finished: return
            case .failure: throw TestFailure()
            case .never: await suspendUntilCancelled()
            }
        }
    }

    /// An `AsyncFuture` whose call returns 0, throws, or waits for its cancellation.
    static func asyncFuture(_ ending: Entry.Ending) -> AsyncFuture<Int, TestFailure> {
        AsyncFuture { () throws(TestFailure) -> Int in
            switch ending {
            case .finished: return 0
            case .failure: throw TestFailure()
            case .never:
                await suspendUntilCancelled()
                throw TestFailure()  // never delivered: the subscription was cancelled
            }
        }
    }

    /// A fresh subject fed by a pump: it sends the next of `0..<count` while the recorder has
    /// demand, then the ending. `first` values are the subject's own (CurrentValueSubject's
    /// current value), delivered by the subject when demand comes.
    static func subject<S: Subject>(
        _ subject: S, count: Int, first: Int = 0, ending: Entry.Ending
    ) -> Source where S.Output == Int, S.Failure == TestFailure, S: Sendable {
        let state = Locked((sent: first, completed: false))
        return Source(subject) { recorder in
            while true {
                let value = state.withLock { $0.sent < count ? $0.sent : nil }
                guard let value else { break }
                guard recorder.outstandingDemand > .none else { return }
                state.withLock { $0.sent += 1 }
                subject.send(value)
            }
            // The subject's own values must be out before the completion (it does not wait).
            guard recorder.events.count > first else { return }
            let complete = state.withLock { state -> Bool in
                defer { state.completed = true }
                return !state.completed
            }
            guard complete else { return }
            switch ending {
            case .finished: subject.send(completion: .finished)
            case .failure: subject.send(completion: .failure(TestFailure()))
            case .never: break
            }
        }
    }
}
