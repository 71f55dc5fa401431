/// A publisher that provides an explicit means of connecting and canceling publication.
///
/// Subscribers attach first; nothing is published until ``connect()``.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements, and returns an instance
    /// with which to cancel publishing.
    func connect() -> any Cancellable
}
