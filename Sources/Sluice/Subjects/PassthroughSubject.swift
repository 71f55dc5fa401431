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

    deinit {
        for upstream in storage.takeUpstreams() { upstream.cancel() }
    }

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
        storage.addUpstream(subscription)
        subscription.request(.unlimited)
    }

    /// Adds a subscriber; after completion, sends it the completion at once.
    ///
    /// ```swift
    /// subject.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))
    /// ```
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribeToSubject(storage, subscriber, description: "PassthroughSubject", deliversCurrentValue: false)
    }

    /// `"PassthroughSubject"`, as Combine prints it.
    ///
    /// ```swift
    /// print(PassthroughSubject<Int, Never>())   // PassthroughSubject
    /// ```
    public var description: String { "PassthroughSubject" }
}

/// Adds a subscriber to a subject's storage: a conduit whose closures are specialised for
/// the concrete subscriber here, in the client, or the completion at once if the subject
/// has completed.
@inlinable
func subscribeToSubject<S: Subscriber>(
    _ storage: SubjectStorage<S.Input, S.Failure>, _ subscriber: S, description: String,
    deliversCurrentValue: Bool
) {
    let conduit = SubjectConduit<S.Input, S.Failure>(parent: storage, description: description)
    let receiver = SubscriberReceiver(subscriber)
    let machine = ConduitStateMachine(receiver: receiver, deliversCurrentValue: deliversCurrentValue)
    if let completion = storage.add(conduit, machine) {
        conduit.detach()
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: completion)
    } else {
        subscriber.receive(subscription: conduit)
    }
}

// Safe: all mutable state is in `SubjectStorage`, behind its lock.
extension PassthroughSubject: @unchecked Sendable {}
