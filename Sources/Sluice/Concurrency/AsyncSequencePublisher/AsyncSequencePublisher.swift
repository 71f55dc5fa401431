/// A publisher that iterates an `AsyncSequence` on demand.
///
/// Each subscriber gets its own iteration, in one task that alone owns the iterator. The
/// task starts at the first demand and never calls `next()` more often than the demand
/// requested so far (no read-ahead, no buffering); while demand is zero it is suspended.
/// Cancelling the subscription cancels that task, so cooperative cancellation reaches the
/// sequence; nothing is delivered afterwards (a `CancellationError` it causes included).
/// The publisher's `Failure` is the sequence's.
///
/// ```swift
/// let stream = AsyncStream<Int> { c in c.yield(1); c.yield(2); c.finish() }
/// let cancellable = stream.publisher.sink { print($0) }   // prints 1, 2
/// ```
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher, Sendable {
    /// The sequence's element.
    ///
    /// ```swift
    /// let stream = AsyncStream<Int> { $0.yield(1); $0.finish() }
    /// let publisher: some Publisher<Int, Never> = stream.publisher   // Output is Int
    /// ```
    public typealias Output = Base.Element
    /// The sequence's failure; `Never` for a sequence that cannot throw.
    ///
    /// ```swift
    /// let stream = AsyncThrowingStream<Int, any Error> { $0.finish() }
    /// let publisher: some Publisher<Int, any Error> = stream.publisher   // Failure is any Error
    /// ```
    public typealias Failure = Base.Failure

    /// The sequence iterated for each subscriber.
    ///
    /// ```swift
    /// stream.publisher.base   // stream
    /// ```
    public let base: Base
    /// The priority of the iterating task; `nil` inherits nothing (the default priority).
    ///
    /// ```swift
    /// stream.publisher(priority: .utility).priority   // .utility
    /// ```
    public let priority: TaskPriority?
    /// The actor the iteration runs on; `nil` for no actor (the global executor).
    ///
    /// ```swift
    /// stream.publisher(iteratingOn: MainActor.shared).actor   // MainActor.shared
    /// ```
    public let actor: (any Actor)?

    /// Creates a publisher of `base`'s elements, iterated at `priority` on `actor`.
    ///
    /// ```swift
    /// let publisher = AsyncSequencePublisher(stream, priority: .high, iteratingOn: MainActor.shared)
    /// ```
    public init(_ base: Base, priority: TaskPriority? = nil, iteratingOn actor: (any Actor)? = nil) {
        self.base = base
        self.priority = priority
        self.actor = actor
    }

    /// Gives the subscriber a subscription whose task iterates the sequence on demand.
    ///
    /// ```swift
    /// stream.publisher.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))
    /// ```
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let base = self.base
        let priority = self.priority
        let actor = self.actor
        let signalled = TaskSubscriber(subscriber)
        let iteration = AsyncSequenceIteration(base: base, subscriber: signalled)
        let starter: TaskSubscription.Starter
        if let actor {
            // Erased, so that the isolated call captures no generic metatype.
            let body: any TaskSubscriptionBody = iteration
            starter = { subscription in
                Task(priority: priority) { await body.run(through: subscription, isolation: actor) }
            }
        } else {
            // Specialised in the client: no actor hop, no existential per subscription.
            let operation = UncheckedSendableOperation { await iteration.run(through: $0) }
            starter = { subscription in
                Task(priority: priority) { await operation.run(subscription) }
            }
        }
        let subscription = TaskSubscription(description: "AsyncSequence", subscriber: signalled, starter: starter)
        subscriber.receive(subscription: subscription)
        subscription.subscriptionDelivered()
    }
}

extension AsyncSequence where Self: Sendable {
    /// A publisher of this sequence's elements, iterated on demand in a task of its own.
    ///
    /// ```swift
    /// let cancellable = stream.publisher.sink { print($0) }
    /// ```
    public var publisher: AsyncSequencePublisher<Self> { AsyncSequencePublisher(self) }

    /// A publisher of this sequence's elements, iterated at `priority` on `actor`.
    ///
    /// ```swift
    /// let cancellable = stream.publisher(priority: .userInitiated, iteratingOn: MainActor.shared)
    ///     .sink { label.text = "\($0)" }
    /// ```
    public func publisher(priority: TaskPriority? = nil, iteratingOn actor: (any Actor)? = nil)
        -> AsyncSequencePublisher<Self>
    {
        AsyncSequencePublisher(self, priority: priority, iteratingOn: actor)
    }
}

/// One subscriber's iteration of the sequence, run by its subscription's task.
@usableFromInline
struct AsyncSequenceIteration<Base: AsyncSequence & Sendable, S: Subscriber>: TaskSubscriptionBody
where S.Input == Base.Element, S.Failure == Base.Failure {
    @usableFromInline
    let base: Base
    @usableFromInline
    let subscriber: TaskSubscriber<S>

    @inlinable
    init(base: Base, subscriber: TaskSubscriber<S>) {
        self.base = base
        self.subscriber = subscriber
    }

    /// The loop on no actor. It calls the iterator's `next()`, not `next(isolation: nil)`:
    /// through the `isolated` parameter every element cost two executor switches
    /// (`swift_task_switch`), about half the time of `(0..<N).async.publisher → sink`.
    /// `next()` throws untyped errors; a conforming iterator throws only its `Failure`, so the
    /// cast cannot fail (the standard library's `next(isolation:)` makes the same cast).
    @inlinable
    func run(through subscription: TaskSubscription) async {
        var iterator = base.makeAsyncIterator()
        var demand = Subscribers.Demand.none
        do throws(Base.Failure) {
            while true {
                if demand == .none {
                    guard let more = await subscription.nextDemand() else { return }
                    demand = more
                }
                if subscription.isCancelled { return }
                let element: Base.Element?
                do { element = try await iterator.next() } catch { throw error as! Base.Failure }
                guard let element else { break }
                // Cancelled meanwhile: stop without a completion (not `break`: a cancel racing
                // from another thread sets the flag before its lock, so `finish()` could still
                // win and deliver `.finished` for a sequence that never ended).
                guard let left = deliver(element, demand, subscription) else { return }
                demand = left
            }
        } catch {
            complete(.failure(error), subscription)
            return
        }
        complete(.finished, subscription)
    }

    /// The loop on `isolation`, for a publisher made with `iteratingOn:`.
    @inlinable
    func run(through subscription: TaskSubscription, isolation: isolated (any Actor)?) async {
        var iterator = base.makeAsyncIterator()
        var demand = Subscribers.Demand.none
        do throws(Base.Failure) {
            while true {
                if demand == .none {
                    guard let more = await subscription.nextDemand() else { return }
                    demand = more
                }
                if subscription.isCancelled { return }
                let element = try await iterator.next(isolation: isolation)
                guard let element else { break }
                // Cancelled meanwhile: stop without a completion (not `break`: a cancel racing
                // from another thread sets the flag before its lock, so `finish()` could still
                // win and deliver `.finished` for a sequence that never ended).
                guard let left = deliver(element, demand, subscription) else { return }
                demand = left
            }
        } catch {
            complete(.failure(error), subscription)
            return
        }
        complete(.finished, subscription)
    }

    /// Delivers `element` unless cancelled meanwhile; returns the demand left.
    @inlinable
    func deliver(_ element: Base.Element, _ demand: Subscribers.Demand, _ subscription: TaskSubscription) -> Subscribers.Demand? {
        if subscription.isCancelled { return nil }
        guard let more = subscriber.receive(element) else { return nil }
        return demand - 1 + more
    }

    /// The sequence ended or threw: the completion, unless cancelled meanwhile.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Base.Failure>, _ subscription: TaskSubscription) {
        if subscription.finish() { subscriber.receive(completion: completion) }
    }
}
