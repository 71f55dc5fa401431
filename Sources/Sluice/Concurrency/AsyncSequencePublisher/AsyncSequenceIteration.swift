/// One subscriber's iteration of a `Sendable` sequence (``AsyncSequencePublisher``), run by its
/// subscription's task: the iterator is made in the task, which alone owns it.
@usableFromInline
struct AsyncSequenceIteration<Base: AsyncSequence & Sendable, S: Subscriber>: Sendable
where S.Input == Base.Element, S.Failure == Base.Failure {
    @usableFromInline
    let base: Base
    @usableFromInline
    let delivery: IterationDelivery<S>

    @inlinable
    init(base: Base, subscriber: TaskSubscriber<S>) {
        self.base = base
        self.delivery = IterationDelivery(subscriber)
    }

    /// The loop on no actor. It calls `next()`, not `next(isolation: nil)`, whose `isolated` parameter cost
    /// two executor switches per element; `next()` throws untyped errors, but a conforming iterator throws
    /// only its `Failure`, so the cast cannot fail (the standard library's `next(isolation:)` makes it too).
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
                // Cancelled meanwhile: stop without a completion (see `IterationDelivery.iterate`).
                guard let left = delivery.deliver(element, demand, subscription) else { return }
                demand = left
            }
        } catch {
            delivery.complete(.failure(error), subscription)
            return
        }
        delivery.complete(.finished, subscription)
    }

    /// The loop on `isolation`, for a publisher made with `iteratingOn:`.
    @inlinable
    func run(through subscription: TaskSubscription, isolation: isolated (any Actor)?) async {
        var iterator = base.makeAsyncIterator()
        await delivery.iterate(&iterator, through: subscription, isolation: isolation)
    }

    /// The same loop for `iteratingOn: MainActor.shared`, isolated statically: with the actor known only at
    /// run time, every `next(isolation:)` was followed by a check of the executor.
    @inlinable @MainActor
    func runOnMainActor(through subscription: TaskSubscription) async {
        var iterator = base.makeAsyncIterator()
        await delivery.iterate(&iterator, through: subscription, isolation: MainActor.shared)
    }
}

/// How an iteration reaches its subscriber, whatever made the iterator: the loop on an actor, and the
/// delivery and completion steps. Shared by ``AsyncSequenceIteration`` (a `Sendable` sequence) and
/// ``IsolatedAsyncSequenceIteration`` (a sequence that is not `Sendable`, made on an actor and kept there).
@usableFromInline
struct IterationDelivery<S: Subscriber>: Sendable {
    @usableFromInline
    let subscriber: TaskSubscriber<S>

    @inlinable
    init(_ subscriber: TaskSubscriber<S>) { self.subscriber = subscriber }

    /// The loop on `isolation`: takes demand, calls `next(isolation:)` once per element requested, delivers,
    /// and completes when the iterator ends or throws, unless cancelled. The caller makes the iterator on
    /// `isolation` and lends it, so an iterator that must not leave an actor never does.
    @inlinable
    func iterate<Iterator: AsyncIteratorProtocol>(
        _ iterator: inout Iterator, through subscription: TaskSubscription, isolation: isolated (any Actor)?
    ) async where Iterator.Element == S.Input, Iterator.Failure == S.Failure {
        var demand = Subscribers.Demand.none
        do throws(S.Failure) {
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
    func deliver(
        _ element: S.Input,
        _ demand: Subscribers.Demand,
        _ subscription: TaskSubscription
    ) -> Subscribers.Demand? {
        if subscription.isCancelled { return nil }
        guard let more = subscriber.receive(element) else { return nil }
        return demand - 1 + more
    }

    /// The sequence ended or threw: the completion, unless cancelled meanwhile.
    @inlinable
    func complete(_ completion: Subscribers.Completion<S.Failure>, _ subscription: TaskSubscription) {
        if subscription.finish() { subscriber.receive(completion: completion) }
    }
}
