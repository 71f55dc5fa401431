/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// With `completeImmediately: false` it never completes: a placeholder that stays silent until cancelled.
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// Whether the publisher immediately sends a completion to each subscriber.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with the given completion behavior and output and failure types.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.init(completeImmediately: completeImmediately)
    }

    /// Sends ``Subscriptions/empty`` and, if ``completeImmediately``, `.finished`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    /// Two empty publishers are equal when they complete the same way.
    @inlinable
    public static func == (lhs: Empty, rhs: Empty) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}
