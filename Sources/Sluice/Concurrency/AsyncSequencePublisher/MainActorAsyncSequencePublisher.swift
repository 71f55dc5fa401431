/// A publisher that iterates, on demand and on the main actor, an `AsyncSequence` made from `@MainActor`
/// state: the sequence need not be `Sendable`, because it never leaves the main actor.
///
/// ``IsolatedAsyncSequencePublisher`` does this for an actor instance, but its factory takes the actor as an
/// `isolated` parameter, and such a closure is not `@MainActor`-isolated (Swift 6.3), so it cannot read
/// `@MainActor` properties. This publisher's factory is a `@MainActor` closure instead; otherwise the
/// contract is the same: one task per subscriber, on the main actor, calls `makeSequence` at the first
/// demand and never makes more `next()` calls than the demand requested; cancelling cancels the task,
/// delivers nothing more (a `CancellationError` it causes included) and releases the subscriber. The
/// `Failure` is the sequence's; the elements must be `Sendable`, as they leave the main actor.
///
/// <!-- snippet: MainActorAsyncSequencePublisherModel -->
/// ```swift
/// @MainActor final class Model {
///     let events = EventSequence()   // an AsyncSequence that is not Sendable
/// }
/// let model = Model()
/// let publisher = MainActor.publisher { model.events }
/// let cancellable = publisher.sink { show($0) }
/// ```
public struct MainActorAsyncSequencePublisher<Base: AsyncSequence>: Publisher, Sendable
where Base.Element: Sendable {
    /// The sequence's element.
    public typealias Output = Base.Element
    /// The sequence's failure; `Never` for a sequence that cannot throw.
    public typealias Failure = Base.Failure

    /// The priority of the iterating task; `nil` inherits nothing (the default priority).
    public let priority: TaskPriority?
    /// Makes the sequence, on the main actor, once for each subscriber, at its first demand.
    public let makeSequence: @MainActor @Sendable () -> Base

    /// Creates a publisher of the elements of the sequence that `makeSequence` makes on the
    /// main actor, iterated there, in a task of priority `priority`.
    public init(priority: TaskPriority? = nil, makeSequence: @escaping @MainActor @Sendable () -> Base) {
        self.priority = priority
        self.makeSequence = makeSequence
    }

    /// Gives the subscriber a subscription whose task makes and iterates the sequence on the main actor.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let priority = self.priority
        let signalled = TaskSubscriber(subscriber)
        let iteration = MainActorAsyncSequenceIteration(
            makeSequence: makeSequence, delivery: IterationDelivery(signalled))
        // Boxed: the closure may not capture the metatypes of `Base` and `S` (`SendableMetatypes`).
        let operation = UncheckedSendableOperation { await iteration.run(through: $0) }
        TaskSubscription.subscribe(
            subscriber, signalling: signalled, description: "AsyncSequence",
            starter: TaskSubscription.starter(priority: priority, running: operation))
    }
}

extension MainActor {
    /// A publisher of the elements of the sequence that `makeSequence` makes from `@MainActor`
    /// state, iterated on the main actor, on demand, in a task of priority `priority` (see
    /// ``MainActorAsyncSequencePublisher``). The sequence need not be `Sendable`.
    public static func publisher<Base: AsyncSequence>(
        priority: TaskPriority? = nil, iterating makeSequence: @escaping @MainActor @Sendable () -> Base
    ) -> MainActorAsyncSequencePublisher<Base> where Base.Element: Sendable {
        MainActorAsyncSequencePublisher(priority: priority, makeSequence: makeSequence)
    }
}

/// One subscriber's iteration of a sequence made on the main actor, run by its subscription's
/// task: the sequence is made, iterated and dropped in ``run(through:)``, on the main actor.
@usableFromInline
struct MainActorAsyncSequenceIteration<Base: AsyncSequence, S: Subscriber>: Sendable
where S.Input == Base.Element, S.Failure == Base.Failure {
    @usableFromInline
    let makeSequence: @MainActor @Sendable () -> Base
    @usableFromInline
    let delivery: IterationDelivery<S>

    @inlinable
    init(makeSequence: @escaping @MainActor @Sendable () -> Base, delivery: IterationDelivery<S>) {
        self.makeSequence = makeSequence
        self.delivery = delivery
    }

    /// Makes the sequence (unless cancelled already: the cancel may have come before the task
    /// reached the main actor) and iterates it, all on the main actor.
    @inlinable @MainActor
    func run(through subscription: TaskSubscription) async {
        if subscription.isCancelled { return }
        var iterator = makeSequence().makeAsyncIterator()
        await delivery.iterate(&iterator, through: subscription, isolation: MainActor.shared)
    }
}
