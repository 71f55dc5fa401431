/// A publisher that iterates an `AsyncSequence` on demand.
///
/// Each subscriber gets its own iteration, in one task that alone owns the iterator. The task starts at the
/// first demand and never calls `next()` more often than the demand requested so far (no read-ahead, no
/// buffering); while demand is zero it is suspended. Cancelling the subscription cancels that task, so
/// cooperative cancellation reaches the sequence; nothing is delivered afterwards (a `CancellationError` it
/// causes included). The publisher's `Failure` is the sequence's.
///
/// The sequence must be `Sendable`; for one that is not, kept by an actor, see ``IsolatedAsyncSequencePublisher``.
///
/// <!-- snippet: AsyncSequencePublisherStream -->
/// ```swift
/// let stream = AsyncStream<Int> { c in c.yield(1); c.yield(2); c.finish() }
/// let cancellable = stream.publisher.sink { show($0) }   // shows 1, then 2, from the iterating task
/// ```
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher, Sendable {
    /// The sequence's element.
    public typealias Output = Base.Element
    /// The sequence's failure; `Never` for a sequence that cannot throw.
    public typealias Failure = Base.Failure

    /// The sequence iterated for each subscriber.
    public let base: Base
    /// The priority of the iterating task; `nil` inherits nothing (the default priority).
    public let priority: TaskPriority?
    /// The actor the iteration runs on; `nil` for no actor (the global executor).
    public let actor: (any Actor)?

    /// Creates a publisher of `base`'s elements, iterated at `priority` on `actor`.
    public init(_ base: Base, priority: TaskPriority? = nil, iteratingOn actor: (any Actor)? = nil) {
        self.base = base
        self.priority = priority
        self.actor = actor
    }

    /// Gives the subscriber a subscription whose task iterates the sequence on demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let base = self.base
        let priority = self.priority
        let actor = self.actor
        let signalled = TaskSubscriber(subscriber)
        let iteration = AsyncSequenceIteration(base: base, subscriber: signalled)
        // Specialised in the client, with or without an actor: an existential body ran the loop unspecialised.
        let operation: UncheckedSendableOperation
        if let actor, actor === MainActor.shared {
            operation = UncheckedSendableOperation { await iteration.runOnMainActor(through: $0) }
        } else if let actor {
            operation = UncheckedSendableOperation { await iteration.run(through: $0, isolation: actor) }
        } else {
            operation = UncheckedSendableOperation { await iteration.run(through: $0) }
        }
        let starter = TaskSubscription.starter(priority: priority, running: operation)
        TaskSubscription.subscribe(subscriber, signalling: signalled, description: "AsyncSequence", starter: starter)
    }
}

extension AsyncSequence where Self: Sendable {
    /// A publisher of this sequence's elements, iterated on demand in a task of its own.
    public var publisher: AsyncSequencePublisher<Self> { AsyncSequencePublisher(self) }

    /// A publisher of this sequence's elements, iterated at `priority` on `actor`.
    public func publisher(priority: TaskPriority? = nil, iteratingOn actor: (any Actor)? = nil)
        -> AsyncSequencePublisher<Self>
    {
        AsyncSequencePublisher(self, priority: priority, iteratingOn: actor)
    }
}
