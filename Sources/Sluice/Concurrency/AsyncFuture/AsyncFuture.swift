/// A publisher that runs one async call lazily, per subscriber, and publishes its result: a `Future` that
/// starts at the first demand instead of at creation, and that cancelling stops (its task is cancelled).
///
/// Each subscriber gets its own call, in a task of its own, started when it requests a value. The result
/// is one value followed by `.finished`; a thrown (typed) error fails it. After a cancel nothing is delivered.
///
/// <!-- snippet: AsyncFutureLazyCall -->
/// ```swift
/// let profile = AsyncFuture<Profile, APIError> { () throws(APIError) in
///     try await api.fetchProfile()   // not called yet
/// }
/// let cancellable = profile.sink(receiveCompletion: { _ in }, receiveValue: { show($0) })   // calls it
/// ```
public struct AsyncFuture<Output, Failure: Error>: Publisher, Sendable {
    /// The call made for each subscriber.
    public let operation: @Sendable () async throws(Failure) -> Output
    /// The priority of the calling task.
    public let priority: TaskPriority?

    /// Creates a publisher that calls `operation` for each subscriber, at `priority`.
    public init(priority: TaskPriority? = nil, _ operation: @escaping @Sendable () async throws(Failure) -> Output) {
        self.operation = operation
        self.priority = priority
    }

    /// Subscribes the subscriber to a ``Producer`` that makes the call and sends its result.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let operation = self.operation
        Producer<Output, Failure>(priority: priority) { (sender) throws(Failure) in
            let value = try await operation()
            await sender.send(value)
        }
        .receive(subscriber: subscriber)
    }
}
