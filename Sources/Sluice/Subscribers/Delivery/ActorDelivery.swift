/// Brings a subscriber's signals to the actor its user code was written on, in arrival order: the Swift 6
/// guarantee behind `sink` and `assign` made in actor-isolated code. A signal that arrives already on the
/// main actor for a main-actor subscriber, with nothing queued, is performed at once, as Combine would; any
/// other is queued, and one task at a time drains the queue on the actor (``DrainQueue``). The runtime
/// offers no public test for "running on this custom actor", so a custom actor's subscriber always takes
/// the queue.
///
/// ```text
/// idle ──signal off the actor──▶ scheduled (queue drained on the actor) ──queue empty──▶ idle
///   └─signal already on the main actor, nothing queued─▶ performed at once (stays idle)
/// ```
@usableFromInline
final class ActorDelivery<Target: ActorBoundSubscriber>: Sendable {
    @usableFromInline typealias Event = SubscriberEvent<Target.Input, Target.Failure>

    @usableFromInline let actor: any Actor
    /// `actor` is the main actor, which a signal can be seen to arrive on already.
    @usableFromInline let isMainActor: Bool
    @usableFromInline let state: Locked<QueueState>

    @inlinable
    init(actor: any Actor) {
        self.actor = actor
        isMainActor = actor === MainActor.shared
        state = Locked(QueueState())
    }

    /// Performs `event` on `target` now if this thread is isolated to the actor and nothing is
    /// queued; otherwise queues it, starting a drain task on the actor if none is running.
    @inlinable
    func deliver(_ event: Event, to target: Target) {
        if isMainActor && isOnMainActorExecutor() {
            let direct = state.withLock { !$0.queue.draining }
            if direct {
                // Isolated to the main actor already: perform now, in Combine's order.
                target.perform(event)
                return
            }
        }
        if state.withLock({ $0.queue.append(event) }) { startDrain(IsolatedTarget(target)) }
    }

    @usableFromInline
    func startDrain(_ reference: IsolatedTarget<Target>) {
        Task { [actor] in await drain(reference, on: actor) }
    }

    /// Performs the queued signals on the actor, in order, until the queue is empty (or the
    /// budget is spent: a new drain task goes on, so other work on the actor gets a turn).
    @usableFromInline
    func drain(_ reference: IsolatedTarget<Target>, on actor: isolated any Actor) {
        state.drain(\.queue, perform: { reference.perform($0) }, handOff: { startDrain(reference) })
    }
}

extension ActorDelivery {
    /// The queue, shared with the drain task. Safe to send: reachable only through the lock, its
    /// signals go to the one subscriber that would have received them on the sending thread.
    @usableFromInline
    struct QueueState: @unchecked Sendable {
        @usableFromInline var queue = DrainQueue<Event>()
        @inlinable init() {}
    }
}

/// A reference to an ``ActorBoundSubscriber`` that may travel to its actor's drain task. Safe because its one
/// use, ``perform(_:)``, is called only from ``ActorDelivery/drain(_:on:)``, on the subscriber's actor (the
/// main actor's direct path calls the subscriber itself), provided that actor is the one the compiler filled
/// in for `isolation:` (one passed by hand is the caller's claim, not checked).
@usableFromInline
struct IsolatedTarget<Target: ActorBoundSubscriber>: @unchecked Sendable {
    @usableFromInline let target: Target
    @inlinable init(_ target: Target) { self.target = target }
    @inlinable func perform(_ event: SubscriberEvent<Target.Input, Target.Failure>) { target.perform(event) }
}
