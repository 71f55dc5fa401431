/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber.
///
/// The closure runs once per subscriber, at subscription time.
///
/// ```swift
/// let now = Deferred { Just(Date()) }   // each subscriber gets its own Just
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The kind of values published by this publisher: the created publisher's.
    ///
    /// ```swift
    /// let deferred: some Publisher<Int, Never> = Deferred { Just(1) }   // Output is Just's, Int
    /// ```
    public typealias Output = DeferredPublisher.Output

    /// The kind of errors this publisher might publish: the created publisher's.
    ///
    /// ```swift
    /// let deferred: some Publisher<Int, any Error> = Deferred { Fail<Int, any Error>(error: CancellationError()) }
    /// ```
    public typealias Failure = DeferredPublisher.Failure

    /// The closure to execute when this publisher receives a subscription.
    ///
    /// ```swift
    /// let publisher = Deferred { Just(1) }.createPublisher()
    /// ```
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher.
    ///
    /// ```swift
    /// let deferred = Deferred { Just(1) }
    /// ```
    @inlinable
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Creates a publisher with ``createPublisher`` and subscribes the subscriber to it.
    ///
    /// ```swift
    /// Deferred { Just(1) }.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))   // makes the Just now; prints 1
    /// ```
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().subscribe(subscriber)
    }
}
