/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber.
///
/// The closure runs once per subscriber, at subscription time.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The kind of values published by this publisher: the created publisher's.
    public typealias Output = DeferredPublisher.Output

    /// The kind of errors this publisher might publish: the created publisher's.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure to execute when this publisher receives a subscription.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher.
    @inlinable
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Creates a publisher with ``createPublisher`` and subscribes the subscriber to it.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().subscribe(subscriber)
    }
}
