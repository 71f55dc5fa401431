/// A publisher whose values come from an async closure that sends them one by one,
/// suspending while the subscriber has no demand: the publisher counterpart of
/// `AsyncStream(unfolding:)`/`AsyncStream { continuation in }`, with back-pressure.
///
/// The body runs once per subscriber, in a task of its own that starts at the first demand.
/// ``Sender/send(_:)`` suspends while demand is zero and returns `false` once the subscription is cancelled
/// (the body's task is cancelled too). The body returning finishes the stream; throwing fails it with the
/// typed `Failure`. After a cancel nothing reaches the subscriber. A value whose `send` is waiting is
/// delivered by the `request(_:)` that brings the demand, inside that call and on its thread, as a
/// synchronous publisher would, without waiting for the body's task to be scheduled.
///
/// <!-- snippet: ProducerNumbers -->
/// ```swift
/// let numbers = Producer<Int, Never> { sender in
///     for n in 1...3 {
///         guard await sender.send(n) else { return }   // false: cancelled
///     }
/// }
/// let cancellable = numbers.sink { show($0) }   // shows 1, 2, 3
/// ```
public struct Producer<Output, Failure: Error>: Publisher, Sendable {
    /// The closure producing one subscriber's values.
    public let body: @Sendable (Sender) async throws(Failure) -> Void
    /// The priority of the producing task.
    public let priority: TaskPriority?

    /// Creates a publisher that runs `body` for each subscriber, at `priority`.
    public init(
        priority: TaskPriority? = nil,
        _ body: @escaping @Sendable (Sender) async throws(Failure) -> Void
    ) {
        self.body = body
        self.priority = priority
    }

    /// Gives the subscriber a subscription whose task runs the body on first demand (`@inlinable`, so each
    /// `send` calls the subscriber's concrete `receive(_:)`).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let signalled = TaskSubscriber(subscriber)
        let run = ProducerRun(body: body, subscriber: signalled)
        let operation = UncheckedSendableOperation { await run.run(through: $0) }
        TaskSubscription.subscribe(
            subscriber, signalling: signalled, description: "Producer",
            starter: TaskSubscription.starter(priority: priority, running: operation))
    }
}

/// One subscriber's run of a producer body, in its subscription's task.
@usableFromInline
struct ProducerRun<S: Subscriber>: Sendable {
    @usableFromInline
    let body: @Sendable (Producer<S.Input, S.Failure>.Sender) async throws(S.Failure) -> Void
    @usableFromInline
    let subscriber: TaskSubscriber<S>

    @inlinable
    init(
        body: @escaping @Sendable (Producer<S.Input, S.Failure>.Sender) async throws(S.Failure) -> Void,
        subscriber: TaskSubscriber<S>
    ) {
        self.body = body
        self.subscriber = subscriber
    }

    /// Runs the body once, then delivers its completion unless the subscription was cancelled.
    @inlinable
    func run(through subscription: TaskSubscription) async {
        if subscription.isCancelled { return }
        let subscriber = self.subscriber
        // `nil` once released: the cancel that released it also stops `send`.
        let sender = Producer<S.Input, S.Failure>.Sender(subscription: subscription) { subscriber.receive($0) }
        do throws(S.Failure) {
            try await body(sender)
        } catch {
            if subscription.finish() { subscriber.receive(completion: .failure(error)) }
            return
        }
        if subscription.finish() { subscriber.receive(completion: .finished) }
    }
}
