/// A publisher that provides an explicit means of connecting and canceling publication: subscribers
/// attach first; nothing is published until ``connect()``.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements; the result cancels publishing.
    func connect() -> any Cancellable
}
