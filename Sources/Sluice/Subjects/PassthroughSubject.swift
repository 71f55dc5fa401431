/// A subject that broadcasts elements to its subscribers, each within its own demand.
///
/// Unlike ``CurrentValueSubject``, it keeps no value: a subscriber without outstanding demand when a value is
/// sent misses it. Once completed, it sends nothing more, and a later subscriber receives the completion at
/// once. A subscription keeps the subject alive until it is cancelled or completes, as in Combine.
///
/// `send` may be called from any number of threads: each subscriber receives one signal at a time, and each
/// sender's values in its order. A sender that finds another thread delivering to a subscriber hands its
/// value over and returns, unless that subscriber's hand-over queue is full (a few values): then it waits
/// until the deliverer drains it, as Combine's waits for the subscriber's lock, so slow subscribers hold fast
/// senders back rather than using unbounded memory. A `send` from inside `receive(_:)` never waits: it is
/// delivered after that `receive` returns. (Two subscribers on two threads that each send into the other's
/// subject from `receive` can wait for each other once both queues are full; in Combine they deadlock.)
///
/// <!-- snippet: PassthroughSubjectDemand -->
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .none)   // from SluiceTesting
/// subject.subscribe(subscriber)
/// subject.send(1)                 // missed: no demand yet
/// subscriber.request(.max(1))
/// subject.send(2)                 // delivered: values == [2]
/// subject.send(3)                 // missed: the demand is used up
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject, CustomStringConvertible {
    @usableFromInline let storage: SubjectStorage<Output, Failure>

    /// Creates a subject with no subscribers.
    public init() { storage = SubjectStorage(currentValue: nil) }

    /// The subject behind `ObservableObject`, named as Combine's (`"ObservableObjectPublisher"`).
    init(kind: SubjectKind) { storage = SubjectStorage(currentValue: nil, kind: kind) }

    deinit { storage.cancelUpstreams() }

    /// Sends a value to every subscriber that has demand for it.
    @inlinable
    public func send(_ value: Output) {
        storage.send(value, setCurrent: false)
    }

    /// Sends a completion to every subscriber; the subject sends nothing after it.
    public func send(completion: Subscribers.Completion<Failure>) {
        storage.send(completion: completion)
    }

    /// Keeps the upstream subscription (cancelled at the subject's deinit) and requests `.unlimited` once any
    /// subscriber of the subject has asked for a value (at once if one has), as Combine's does.
    public func send(subscription: any Subscription) {
        storage.send(subscription: subscription)
    }

    /// Adds a subscriber; after completion, sends it the completion at once.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        storage.subscribe(subscriber, to: self)
    }

    /// `"PassthroughSubject"`, as Combine prints it.
    public var description: String { "PassthroughSubject" }
}

// Sendable: its one stored property is the storage; values cross threads, so only if `Output` is.
extension PassthroughSubject: Sendable where Output: Sendable {}
