/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// With `completeImmediately: false` it never completes: useful as a placeholder that stays
/// silent until cancelled.
///
/// ```swift
/// let finished = Empty<Int, Never>()                         // finishes at once
/// let silent = Empty<Int, Never>(completeImmediately: false) // never signals again
/// ```
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// Whether the publisher immediately sends a completion to each subscriber.
    ///
    /// ```swift
    /// Empty<Int, Never>().completeImmediately   // true
    /// ```
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    ///
    /// ```swift
    /// let empty = Empty<String, any Error>(completeImmediately: true)
    /// ```
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with the given completion behavior and output and failure
    /// types.
    ///
    /// ```swift
    /// let empty = Empty(completeImmediately: false, outputType: Int.self, failureType: Never.self)
    /// ```
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.init(completeImmediately: completeImmediately)
    }

    /// Sends ``Subscriptions/empty`` and, if ``completeImmediately``, `.finished`.
    ///
    /// ```swift
    /// Empty<Int, Never>().subscribe(Subscribers.Sink(receiveCompletion: { print($0) }, receiveValue: { _ in }))   // prints finished
    /// ```
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    /// Two empty publishers are equal when they complete the same way.
    ///
    /// ```swift
    /// Empty<Int, Never>() == Empty<Int, Never>(completeImmediately: true)   // true
    /// ```
    @inlinable
    public static func == (lhs: Empty, rhs: Empty) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}
