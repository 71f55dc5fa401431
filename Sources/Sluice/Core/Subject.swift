/// A publisher that exposes a method for outside callers to publish elements.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send(1)                       // prints 1
/// subject.send(completion: .finished)
/// ```
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    ///
    /// ```swift
    /// subject.send(42)
    /// ```
    func send(_ value: Output)

    /// Sends a completion signal to the subscribers; the subject sends nothing after it.
    ///
    /// ```swift
    /// subject.send(completion: .finished)
    /// ```
    func send(completion: Subscribers.Completion<Failure>)

    /// Provides this subject an upstream subscription; the subject requests unlimited demand
    /// from it. Used when a subject subscribes to a publisher with `subscribe(_:)`.
    ///
    /// ```swift
    /// subject.send(subscription: Subscriptions.empty)
    /// ```
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscribers.
    ///
    /// ```swift
    /// let ticks = PassthroughSubject<Void, Never>()
    /// ticks.send()
    /// ```
    public func send() {
        send(())
    }
}
