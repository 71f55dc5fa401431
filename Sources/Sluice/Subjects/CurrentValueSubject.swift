/// A subject that wraps a single value and publishes a new element whenever it changes.
///
/// Each subscriber receives the current value with its first demand, then every later value
/// for which it has demand. Setting ``value`` sends the new value. Once completed, the
/// subject sends nothing more (``value`` can still be read and set), and a later subscriber
/// receives the completion at once. `send` is thread-safe as for ``PassthroughSubject``.
///
/// ```swift
/// let temperature = CurrentValueSubject<Int, Never>(20)
/// let cancellable = temperature.sink { print($0) }   // prints 20
/// temperature.value = 21                             // prints 21
/// temperature.send(22)                               // prints 22
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject, CustomStringConvertible {
    @usableFromInline let storage: SubjectStorage<Output, Failure>

    /// Creates a subject with the given initial value.
    ///
    /// ```swift
    /// let subject = CurrentValueSubject<String, Never>("initial")
    /// ```
    public init(_ value: Output) {
        storage = SubjectStorage(currentValue: value)
    }

    deinit { storage.cancelUpstreams() }

    /// The current value; setting it sends the new value to the subscribers.
    ///
    /// ```swift
    /// subject.value += 1
    /// ```
    @inlinable
    public var value: Output {
        get { storage.currentValue! }
        set {
            storage.send(newValue, setCurrent: true, evenIfCompleted: true)
        }
    }

    /// Makes `value` the current value and sends it to every subscriber with demand for it.
    /// Does nothing after completion.
    ///
    /// ```swift
    /// subject.send(42)
    /// ```
    @inlinable
    public func send(_ value: Output) {
        storage.send(value, setCurrent: true)
    }

    /// Sends a completion to every subscriber; the subject sends nothing after it.
    ///
    /// ```swift
    /// subject.send(completion: .finished)
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

    /// Adds a subscriber; it receives the current value with its first demand. After
    /// completion, sends it the completion at once.
    ///
    /// ```swift
    /// subject.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))
    /// ```
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        storage.subscribe(subscriber)
    }

    /// `"CurrentValueSubject"`, as Combine prints it.
    ///
    /// ```swift
    /// print(CurrentValueSubject<Int, Never>(0))   // CurrentValueSubject
    /// ```
    public var description: String { "CurrentValueSubject" }
}

// Sendable by construction (its one stored property is the storage); values cross threads, so
// only where `Output` is Sendable.
extension CurrentValueSubject: Sendable where Output: Sendable {}
