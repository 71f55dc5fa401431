/// A publisher that provides an explicit means of connecting and canceling publication.
///
/// Subscribers attach first; nothing is published until ``connect()``.
///
/// ```swift
/// let connection = connectable.connect()
/// // later
/// connection.cancel()
/// ```
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements, and returns an instance
    /// with which to cancel publishing.
    ///
    /// ```swift
    /// let connection = connectable.connect()
    /// ```
    func connect() -> any Cancellable
}
