/// A publisher that exposes a method for outside callers to publish elements.
///
/// A subject sends to the subscribers attached when it sends, and nothing after its completion.
///
/// <!-- snippet: SubjectSend -->
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// var received: [Int] = []
/// let cancellable = subject.sink { received.append($0) }
/// subject.send(1)
/// subject.send(completion: .finished)
/// subject.send(2)                        // ignored: received == [1]
/// cancellable.cancel()                   // nothing to stop: the subscription has finished
/// ```
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    func send(_ value: Output)

    /// Sends a completion signal to the subscribers; the subject sends nothing after it.
    func send(completion: Subscribers.Completion<Failure>)

    /// Provides this subject an upstream subscription (from `subscribe(_:)`); it requests unlimited demand.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscribers.
    public func send() {
        send(())
    }
}
