/// A publisher that iterates, on demand and on an actor, an `AsyncSequence` that this actor
/// makes and owns: the sequence need not be `Sendable`, because it never leaves the actor.
///
/// Each subscriber gets its own iteration, in one task isolated to `actor`: at the first demand it calls
/// `makeSequence` there, then iterates with `next(isolation:)`, so the sequence and its iterator never leave
/// the actor (the compiler checks this: `makeSequence` takes the actor `isolated`). Otherwise it keeps
/// ``AsyncSequencePublisher``'s contract: never more `next()` calls than the demand requested so far,
/// suspended while demand is zero; cancelling cancels the task, delivers nothing more (a `CancellationError`
/// it causes included) and releases the subscriber. The publisher's `Failure` is the sequence's. The
/// elements must be `Sendable`: they leave the actor for the subscriber, which may use them anywhere.
///
/// A global actor's state is out of reach: a closure taking `isolated MainActor` is not `@MainActor`-isolated
/// (Swift 6.3), so `makeSequence` cannot read `@MainActor` properties. For the main actor's state use
/// ``MainActorAsyncSequencePublisher`` (`MainActor.publisher(iterating:)`); keep a sequence of another global
/// actor's state in an actor instance.
///
/// <!-- snippet: IsolatedAsyncSequencePublisherFeed -->
/// ```swift
/// actor Feed {
///     let entries = Entries()   // an AsyncSequence that is not Sendable
/// }
/// let feed = Feed()
/// let publisher = IsolatedAsyncSequencePublisher(iteratingOn: feed) { feed in feed.entries }
/// let cancellable = publisher.sink { show($0) }   // or: feed.publisher { $0.entries }.sink { … }
/// ```
public struct IsolatedAsyncSequencePublisher<A: Actor, Base: AsyncSequence>: Publisher, Sendable
where Base.Element: Sendable {
    /// The sequence's element.
    public typealias Output = Base.Element
    /// The sequence's failure; `Never` for a sequence that cannot throw.
    public typealias Failure = Base.Failure

    /// The actor that makes the sequence and that its iteration runs on.
    public let actor: A
    /// The priority of the iterating task; `nil` inherits nothing (the default priority).
    public let priority: TaskPriority?
    /// Makes the sequence, on ``actor``, once for each subscriber, at its first demand.
    public let makeSequence: @Sendable (isolated A) -> Base

    /// Creates a publisher of the elements of the sequence that `makeSequence` makes on
    /// `actor`, iterated there, in a task of priority `priority`.
    public init(
        priority: TaskPriority? = nil, iteratingOn actor: A,
        makeSequence: @escaping @Sendable (isolated A) -> Base
    ) {
        self.actor = actor
        self.priority = priority
        self.makeSequence = makeSequence
    }

    /// Gives the subscriber a subscription whose task makes and iterates the sequence on the actor, on demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let priority = self.priority
        let signalled = TaskSubscriber(subscriber)
        let iteration = IsolatedAsyncSequenceIteration(
            actor: actor, makeSequence: makeSequence, delivery: IterationDelivery(signalled))
        // Boxed: the closure may not capture the metatypes of `Base` and `S` (`SendableMetatypes`).
        let operation = UncheckedSendableOperation { await iteration.run(through: $0) }
        TaskSubscription.subscribe(
            subscriber, signalling: signalled, description: "AsyncSequence",
            starter: TaskSubscription.starter(priority: priority, running: operation))
    }
}

extension Actor {
    /// A publisher of the elements of the sequence that `makeSequence` makes on this actor,
    /// iterated on this actor, on demand, in a task of priority `priority` (see
    /// ``IsolatedAsyncSequencePublisher``). The sequence need not be `Sendable`.
    public nonisolated func publisher<Base: AsyncSequence>(
        priority: TaskPriority? = nil, iterating makeSequence: @escaping @Sendable (isolated Self) -> Base
    ) -> IsolatedAsyncSequencePublisher<Self, Base> where Base.Element: Sendable {
        IsolatedAsyncSequencePublisher(priority: priority, iteratingOn: self, makeSequence: makeSequence)
    }
}

/// One subscriber's iteration of a sequence made on an actor, run by its subscription's task. The sequence
/// is made, iterated and dropped in ``run(through:on:)``, on the actor, so it need not be `Sendable`; only
/// this struct (the actor, the `@Sendable` factory and the subscriber) crosses into the task.
@usableFromInline
struct IsolatedAsyncSequenceIteration<A: Actor, Base: AsyncSequence, S: Subscriber>: Sendable
where S.Input == Base.Element, S.Failure == Base.Failure {
    @usableFromInline
    let actor: A
    @usableFromInline
    let makeSequence: @Sendable (isolated A) -> Base
    @usableFromInline
    let delivery: IterationDelivery<S>

    @inlinable
    init(actor: A, makeSequence: @escaping @Sendable (isolated A) -> Base, delivery: IterationDelivery<S>) {
        self.actor = actor
        self.makeSequence = makeSequence
        self.delivery = delivery
    }

    /// Hops to the actor and iterates there.
    @inlinable
    func run(through subscription: TaskSubscription) async {
        await run(through: subscription, on: actor)
    }

    /// Makes the sequence (unless cancelled already: the cancel may have come before the task
    /// reached the actor) and iterates it, all on `actor`.
    @inlinable
    func run(through subscription: TaskSubscription, on actor: isolated A) async {
        if subscription.isCancelled { return }
        var iterator = makeSequence(actor).makeAsyncIterator()
        await delivery.iterate(&iterator, through: subscription, isolation: actor)
    }
}
