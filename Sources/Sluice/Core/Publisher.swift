/// A type that can deliver a sequence of values over time to subscribers, on demand.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances whose `Input` and `Failure`
/// match its `Output` and `Failure`; nothing is delivered until requested through the ``Subscription``.
/// Implement ``receive(subscriber:)`` to write a publisher; call ``subscribe(_:)->()`` to attach one.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output

    /// The kind of errors this publisher might publish; `Never` if it cannot fail.
    associatedtype Failure: Error

    /// Attaches `subscriber` to this publisher; implement it, but call ``subscribe(_:)->()`` instead.
    ///
    /// The subscriber gets a subscription first, always, even when the publisher has nothing to send:
    ///
    /// <!-- snippet: PublisherReceiveSubscriber -->
    /// ```swift
    /// func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    ///     subscriber.receive(subscription: Subscriptions.empty)
    ///     subscriber.receive(completion: .finished)
    /// }
    /// ```
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    @inlinable
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}
