/// A publisher whose values come from an async closure that sends them one by one,
/// suspending while the subscriber has no demand: the publisher counterpart of
/// `AsyncStream(unfolding:)`/`AsyncStream { continuation in }`, with back-pressure.
///
/// The body runs once per subscriber, in a task of its own that starts at the first
/// demand. ``Sender/send(_:)`` suspends while demand is zero and returns `false` once
/// the subscription is cancelled (the body's task is cancelled too, so its awaits see
/// cooperative cancellation). The body returning finishes the stream; throwing fails it
/// with the typed `Failure`. After a cancel nothing reaches the subscriber.
///
/// ```swift
/// let numbers = Producer<Int, Never> { sender in
///     for n in 1...3 {
///         guard await sender.send(n) else { return }   // false: cancelled
///     }
/// }
/// let cancellable = numbers.sink { print($0) }   // prints 1, 2, 3
/// ```
public struct Producer<Output, Failure: Error>: Publisher, Sendable {
    /// The closure producing one subscriber's values.
    ///
    /// ```swift
    /// let producer = Producer<Int, any Error> { sender in await sender.send(1) }
    /// let body = producer.body   // run once per subscriber, with its own Sender
    /// ```
    public let body: @Sendable (Sender) async throws(Failure) -> Void
    /// The priority of the producing task.
    ///
    /// ```swift
    /// Producer<Int, Never>(priority: .utility) { _ in }.priority   // .utility
    /// ```
    public let priority: TaskPriority?

    /// Creates a publisher that runs `body` for each subscriber, at `priority`.
    ///
    /// ```swift
    /// let lines = Producer<String, ReadError>(priority: .utility) { sender in
    ///     for try await line in file.lines { guard await sender.send(line) else { return } }
    /// }
    /// ```
    public init(
        priority: TaskPriority? = nil,
        _ body: @escaping @Sendable (Sender) async throws(Failure) -> Void
    ) {
        self.body = body
        self.priority = priority
    }

    /// Gives the subscriber a subscription whose task runs the body on first demand.
    ///
    /// `@inlinable`: the client specialises the run for its subscriber, so each `send`
    /// calls the subscriber's concrete `receive(_:)` (no `AnySubscriber`, no unspecialised
    /// generic code looking up type metadata per value).
    ///
    /// ```swift
    /// let producer = Producer<Int, Never> { sender in await sender.send(1) }
    /// producer.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))   // prints 1
    /// ```
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let signalled = TaskSubscriber(subscriber)
        let run = ProducerRun(body: body, subscriber: signalled)
        let operation = UncheckedSendableOperation { await run.run(through: $0) }
        let priority = self.priority
        let subscription = TaskSubscription(description: "Producer", subscriber: signalled) { subscription in
            Task(priority: priority) { await operation.run(subscription) }
        }
        subscriber.receive(subscription: subscription)
        subscription.subscriptionDelivered()
    }
}

extension Producer {
    /// What a ``Producer`` body sends its values through; it belongs to the
    /// body's task and is not `Sendable`, so values are sent serially, from that task only.
    ///
    /// ```swift
    /// let delivered = await sender.send(42)
    /// ```
    public final class Sender {
        @usableFromInline
        let subscription: TaskSubscription
        /// The subscriber's `receive(_:)`, built in the client-specialised
        /// ``Producer/receive(subscriber:)``: one indirect call per value, to concrete code.
        @usableFromInline
        let deliver: (Output) -> Subscribers.Demand
        /// Demand taken from the subscription and not yet spent: owned by the body's task,
        /// so spending it needs no lock.
        ///
        /// Unchecked exclusivity (the dynamic check cost ≈ 5% of a prefetching `send`): the
        /// sender is not `Sendable`, so only the body's task reaches it, and every access in
        /// ``send(_:)`` is instantaneous (none spans an `await`), so no two can overlap.
        @exclusivity(unchecked) @usableFromInline
        var demand = Subscribers.Demand.none

        @usableFromInline
        init(subscription: TaskSubscription, deliver: @escaping (Output) -> Subscribers.Demand) {
            self.subscription = subscription
            self.deliver = deliver
        }

        /// Delivers `value` once the subscriber has demand for it, suspending until then.
        ///
        /// Returns `true` once delivered, `false` if the subscription was cancelled (before
        /// or while waiting): the value was dropped and the body should return.
        ///
        /// ```swift
        /// for n in 1... { guard await sender.send(n) else { break } }
        /// ```
        @inlinable @discardableResult
        public func send(_ value: Output) async -> Bool {
            if demand == .none {
                guard let more = await subscription.nextDemand() else { return false }
                demand = more
            }
            if subscription.isCancelled { return false }
            demand -= 1
            demand += deliver(value)
            return true
        }

        /// `true` once the subscription is cancelled; nothing sent afterwards is delivered.
        ///
        /// ```swift
        /// while !sender.isCancelled { await sender.send(await next()) }
        /// ```
        public var isCancelled: Bool { subscription.isCancelled }
    }
}

@available(*, unavailable)
extension Producer.Sender: Sendable {}

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
        // `.none` once released: the cancel that released it also stops `send`.
        let sender = Producer<S.Input, S.Failure>.Sender(subscription: subscription) { subscriber.receive($0) ?? .none }
        do throws(S.Failure) {
            try await body(sender)
        } catch {
            if subscription.finish() { subscriber.receive(completion: .failure(error)) }
            return
        }
        if subscription.finish() { subscriber.receive(completion: .finished) }
    }
}
