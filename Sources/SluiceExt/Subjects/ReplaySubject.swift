import Sluice

/// A subject that keeps its last `bufferSize` values and replays them to each new subscriber, then sends it
/// every later value (CombineExt's `ReplaySubject`).
///
/// - Replay: a new subscriber receives the kept values, oldest first, within its demand, then the values
///   sent after it subscribed; after completion, the kept values and then the completion (which needs no demand).
/// - Demand: nothing is delivered beyond a subscriber's demand, and nothing is dropped for want of it: as in
///   CombineExt, each subscriber has a backlog of the values it has not yet had demand for (a subscriber that
///   never requests keeps them all, until it cancels). A completion goes out after the backlog.
/// - Threads: `send` may be called from any thread; each subscriber receives one signal at a time, in the
///   order the sends took the subject's lock, and no lock is held while a subscriber is called. A `send` from
///   inside a subscriber's `receive(_:)` is delivered to it after that `receive` returns.
/// - Upstreams: ``send(subscription:)`` requests `.unlimited` at once (a multicast over a synchronous
///   publisher fills the buffer as it connects); the subscriptions are cancelled when the subject is deinitialized.
/// - Lifetime: a subscriber is released when it cancels or its completion has been delivered.
///
/// <!-- snippet: ReplaySubjectLateSubscriber -->
/// ```swift
/// let subject = ReplaySubject<Int, Never>(bufferSize: 2)
/// subject.send(1)
/// subject.send(2)
/// subject.send(3)
/// let late = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
/// subject.subscribe(late)          // values == [2]: the kept values, within demand
/// late.request(.max(2))
/// subject.send(4)                  // values == [2, 3, 4]
/// ```
public final class ReplaySubject<Output, Failure: Error>: Subject, CustomStringConvertible {
    @usableFromInline let storage: ReplayStorage<Output, Failure>

    /// Creates a subject that keeps the last `bufferSize` values (none for 0). Traps if `bufferSize` is negative.
    public init(bufferSize: Int) {
        precondition(bufferSize >= 0, "ReplaySubject: bufferSize must not be negative, got \(bufferSize)")
        storage = ReplayStorage(bufferSize: bufferSize)
    }

    deinit { storage.cancelUpstreams() }

    /// Keeps `value` (dropping the oldest beyond the buffer's size) and sends it to every subscriber within
    /// its demand. Does nothing after completion.
    @inlinable
    public func send(_ value: Output) {
        storage.send(value)
    }

    /// Completes each subscriber after its backlog (later ones after the replay); only the first completion counts.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        storage.send(completion: completion)
    }

    /// Requests `.unlimited` from `subscription` at once and keeps it, to cancel it when the subject is deinitialized.
    @inlinable
    public func send(subscription: any Subscription) {
        storage.send(subscription: subscription)
    }

    /// Adds a subscriber: it receives its subscription, then the kept values within its demand, then the
    /// live values (and, after completion, the completion).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        storage.subscribe(subscriber)
    }

    /// `"ReplaySubject"`.
    public var description: String { "ReplaySubject" }
}

extension ReplaySubject: Sendable where Output: Sendable {}

extension Publisher {
    /// Shares this publisher among its subscribers and replays its last `count` values to each new one
    /// (CombineExt's `share(replay:)`): a multicast through a ``ReplaySubject`` with `autoconnect()`.
    ///
    /// The first subscriber connects the upstream, which is asked for `.unlimited` at once; later subscribers
    /// receive the kept values, then the live ones, each within its own demand. Once the upstream has
    /// completed, a later subscriber receives the kept values and the completion, and the upstream is not run
    /// again. When every subscriber has cancelled, the upstream subscription is cancelled (the kept values stay).
    ///
    /// <!-- snippet: ShareReplaySynchronous -->
    /// ```swift
    /// let shared = [1, 2, 3].publisher.share(replay: 2)
    /// let first = RecordingSubscriber<Int, Never>()
    /// shared.subscribe(first)          // connects: 1, 2, 3, finished
    /// let late = RecordingSubscriber<Int, Never>()
    /// shared.subscribe(late)           // 2, 3, finished
    /// #expect(late.values == [2, 3])
    /// #expect(late.completion == .finished)
    /// ```
    public func share(
        replay count: Int
    ) -> Publishers.Autoconnect<Publishers.Multicast<Self, ReplaySubject<Output, Failure>>> {
        multicast { ReplaySubject(bufferSize: count) }.autoconnect()
    }
}
