import Sluice
import SluiceExt
import SluiceTesting

// The pieces registry entries are made of: an adapter that lets a `Never`-failing publisher
// join the registry, an async sequence, and the bodies that drive `Emitting`, `Producer` and the
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

enum Bodies {
    /// A `Emitting` body sending `0..<count` as demand comes (see ``OrderedSender``), then the
    /// ending.
    static func emitting(count: Int, ending: Entry.Ending) -> Publishers.Emitting<Int, TestFailure> {
        Publishers.Emitting { producer in
            let sender = OrderedSender(producer, count: count) {
                switch ending {
                case .finished: producer.send(completion: .finished)
                case .failure: producer.send(completion: .failure(TestFailure()))
                case .never: break
                }
            }
            producer.onRequest { _ in sender.pump() }
            sender.pump()  // `count == 0`: ends at once
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

    /// A fresh subject that keeps, for each subscriber, what it has no demand for yet
    /// (SluiceExt's `ReplaySubject`, and `share(replay:)` over a subject with `sharing`): its
    /// pump sends `0..<count` and the ending once, at the first call, and the subject hands
    /// them out as demand comes. (The pump of ``subject(_:count:ending:sharing:)`` sends again a
    /// value that was not delivered, which such a subject would deliver twice.)
    static func backlogged<S: Subject>(
        _ subject: S, count: Int, ending: Entry.Ending, sharing: Registry.Transform? = nil
    ) -> Source where S.Output == Int, S.Failure == TestFailure, S: Sendable {
        let sent = Locked(false)
        let publisher = sharing.map { AnyPublisher($0(AnyPublisher(subject))) } ?? AnyPublisher(subject)
        return Source(publisher, subject: subject) { _ in
            guard !sent.withLock({ sent in defer { sent = true }; return sent }) else { return }
            for value in 0..<count { subject.send(value) }
            switch ending {
            case .finished: subject.send(completion: .finished)
            case .failure: subject.send(completion: .failure(TestFailure()))
            case .never: break
            }
        }
    }

    /// A fresh subject fed by a pump that sends `0..<count`, then the ending.
    ///
    /// The pump never looks at the recorder's demand: it sends the next value the subject has
    /// not delivered yet and goes on while the subject delivers, so each pump ends by sending
    /// one value the subject must drop (no demand left). The subject, not the test, keeps every
    /// demand rule; a subject that delivered beyond demand would show in the recorder's
    /// violations. What the subject delivered is counted by a tap between it and its subscriber
    /// (an operator under test may sit between the tap and the recorder), and the next value is
    /// that count, so a value the subject delivers by itself later (a `CurrentValueSubject`
    /// gives its current value when demand comes) is not sent twice.
    ///
    /// Pumps called from several threads at once, or from inside a delivery, run one at a
    /// time: a pump called while another runs asks that one to go round again.
    ///
    /// With `sharing`, the subject is seen through that operator and the tap sits after it:
    /// an operator that shares the subject among its subscribers (`share()`) takes every
    /// value and hands each subscriber only what it has demand for, so what counts as
    /// delivered is what passed the operator, and a value it dropped is sent again.
    static func subject<S: Subject>(
        _ subject: S, count: Int, ending: Entry.Ending, sharing: Registry.Transform? = nil
    ) -> Source where S.Output == Int, S.Failure == TestFailure, S: Sendable {
        let completed = Locked(false)
        let pumping = OneAtATime()
        let tapped = Tapped(upstream: sharing.map { AnyPublisher($0(AnyPublisher(subject))) } ?? AnyPublisher(subject))
        let delivered = tapped.delivered
        return Source(tapped, subject: subject) { _ in
            pumping.run {
                while !completed.withLock({ $0 }) {
                    let next = delivered.value
                    if next >= count {
                        completed.withLock { $0 = true }
                        switch ending {
                        case .finished: subject.send(completion: .finished)
                        case .failure: subject.send(completion: .failure(TestFailure()))
                        case .never: break
                        }
                        break
                    }
                    // A CurrentValueSubject owes a value it dropped for want of demand (its
                    // current one) and delivers it at the next request: sent again, it would
                    // arrive twice.
                    let current = (subject as? CurrentValueSubject<Int, TestFailure>)?.value
                        ?? (subject as? RelayFeed<CurrentValueRelay<Int>>)?.currentValue
                    if let current, current >= next { break }
                    subject.send(next)
                    if delivered.value == next { break }  // dropped: no demand
                }
            }
        }
    }
}

/// A publisher seen through a count of the values it delivered; it adds no subscription of
/// its own (its subscriber gets the upstream's), so every rule still tests the upstream.
struct Tapped<Upstream: Publisher>: Publisher where Upstream.Output == Int, Upstream.Failure == TestFailure {
    typealias Output = Int
    typealias Failure = TestFailure

    final class Count: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    let upstream: Upstream
    let delivered = Count()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestFailure {
        upstream.subscribe(Counting(downstream: subscriber, delivered: delivered))
    }

    struct Counting<Downstream: Subscriber>: Subscriber where Downstream.Input == Int, Downstream.Failure == TestFailure {
        typealias Input = Int
        typealias Failure = TestFailure
        let downstream: Downstream
        let delivered: Count
        var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
        func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
        func receive(_ input: Int) -> Subscribers.Demand {
            delivered.add()
            return downstream.receive(input)
        }
        func receive(completion: Subscribers.Completion<TestFailure>) { downstream.receive(completion: completion) }
    }
}

/// Sends `0..<count` through a `Emitting` emitter as demand comes, then calls `end`.
///
/// `onRequest` runs re-entrantly and on several threads at once. `Emitting` keeps its signals
/// serial, but the order of values sent from several threads at once is the senders' affair,
/// so this sends from one thread at a time: a ``pump()`` that comes while another thread
/// sends asks that one to go round again (the values it would have sent follow in order).
final class OrderedSender<Failure: Error>: Sendable {
    private struct State {
        var next = 0
        var ended = false
    }

    private let emitter: Publishers.Emitting<Int, Failure>.Emitter
    private let count: Int
    private let end: @Sendable () -> Void
    private let state = Locked(State())
    private let sending = OneAtATime()

    init(_ emitter: Publishers.Emitting<Int, Failure>.Emitter, count: Int, end: @escaping @Sendable () -> Void) {
        self.emitter = emitter
        self.count = count
        self.end = end
    }

    /// Sends while the emitter takes values; ends once all are out.
    func pump() {
        sending.run {
            while let value = state.withLock({ $0.next < count ? $0.next : nil }), emitter.send(value) {
                state.withLock { $0.next += 1 }
            }
            let ends = state.withLock { state -> Bool in
                guard state.next == count, !state.ended else { return false }
                state.ended = true
                return true
            }
            if ends { end() }
        }
    }
}

/// Runs a body on one thread at a time: a call that comes while the body runs (from another
/// thread, or from inside the body) asks the running call to go round again, and returns.
final class OneAtATime: Sendable {
    private let state = Locked((running: false, again: false))

    func run(_ body: () -> Void) {
        let runsNow = state.withLock { state -> Bool in
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        guard runsNow else { return }
        repeat { body() } while state.withLock { state -> Bool in
            let again = state.again
            state.again = false
            state.running = again
            return again
        }
    }
}
