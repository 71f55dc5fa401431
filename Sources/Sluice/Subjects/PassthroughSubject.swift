/// A subject that broadcasts elements to its subscribers, each within its own demand.
///
/// Unlike ``CurrentValueSubject``, it has no initial value and keeps no value: a subscriber
/// that has no outstanding demand when a value is sent misses it. Once completed, the subject
/// sends nothing more, and a later subscriber receives the completion at once.
///
/// `send` may be called from any number of threads: each subscriber still receives one
/// signal at a time, and each sender's values in the order it sent them. A `send` from inside
/// a subscriber's `receive(_:)` is delivered to that subscriber after the `receive` returns.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send(1)                        // prints 1
/// subject.send(completion: .finished)
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject, CustomStringConvertible {
    @usableFromInline let storage = SubjectStorage<Output, Failure>(currentValue: nil)

    /// Creates a subject with no subscribers.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<String, Error>()
    /// ```
    public init() {}

    deinit { storage.cancelUpstreams() }

    /// Sends a value to every subscriber that has demand for it.
    ///
    /// ```swift
    /// subject.send(42)
    /// ```
    @inlinable
    public func send(_ value: Output) {
        storage.send(value, setCurrent: false)
    }

    /// Sends a completion to every subscriber; the subject sends nothing after it.
    ///
    /// ```swift
    /// subject.send(completion: .failure(MyError()))
    /// ```
    public func send(completion: Subscribers.Completion<Failure>) {
        storage.send(completion: completion)
    }

    /// Keeps the upstream subscription (cancelled when the subject is deinitialized) and
    /// requests `.unlimited` from it.
    ///
    /// ```swift
    /// publisher.subscribe(subject)   // calls send(subscription:)
    /// ```
    public func send(subscription: any Subscription) {
        storage.send(subscription: subscription)
    }

    /// Adds a subscriber; after completion, sends it the completion at once.
    ///
    /// ```swift
    /// subject.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))
    /// ```
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        storage.subscribe(subscriber)
    }

    /// `"PassthroughSubject"`, as Combine prints it.
    ///
    /// ```swift
    /// print(PassthroughSubject<Int, Never>())   // PassthroughSubject
    /// ```
    public var description: String { "PassthroughSubject" }
}

// Sendable by construction (its one stored property is the storage); values cross threads, so
// only where `Output` is Sendable.
extension PassthroughSubject: Sendable where Output: Sendable {}
