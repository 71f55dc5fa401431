/// Brings a subscriber's signals to the actor its user code was written on, in the order they
/// arrive: the Swift 6 guarantee behind `sink` and `assign` made in actor-isolated code.
///
/// A signal that arrives already on the main actor for a main-actor subscriber, with nothing queued
/// before it, is performed at once, as Combine would (so `subject.send(1)` on the main actor
/// has updated the UI state when it returns). Any other signal is queued, and one task at a
/// time drains the queue on the actor, in arrival order. The runtime offers no public test
/// for "running on this custom actor", so a custom actor's subscriber always takes the queue.
///
/// ```text
/// idle ──signal off the actor──▶ scheduled (queue drained on the actor) ──queue empty──▶ idle
///   └─signal already on the main actor, nothing queued─▶ performed at once (stays idle)
/// ```
@usableFromInline
final class ActorDelivery<Target: ActorBoundSubscriber>: Sendable {
    @usableFromInline typealias Event = SubscriberEvent<Target.Input, Target.Failure>

    @usableFromInline
    struct State {
        @usableFromInline var queue: [Event] = []
        /// A drain task exists (and may be performing a batch taken from the queue).
        @usableFromInline var scheduled = false
        @inlinable init() {}
    }

    @usableFromInline let actor: any Actor
    /// `actor` is the main actor, which a signal can be seen to arrive on already.
    @usableFromInline let isMainActor: Bool
    @usableFromInline let state: Locked<QueueState>

    @inlinable
    init(actor: any Actor) {
        self.actor = actor
        isMainActor = actor === MainActor.shared
        state = Locked(QueueState(State()))
    }

    /// Performs `event` on `target` now if this thread is isolated to the actor and nothing is
    /// queued; otherwise queues it, starting a drain task on the actor if none is running.
    @inlinable
    func deliver(_ event: Event, to target: Target) {
        if isMainActor && isOnMainActorExecutor() {
            let direct = state.withLock { !$0.state.scheduled }
            if direct {
                // Isolated to the main actor already: perform now, in Combine's order.
                target.perform(event)
                return
            }
        }
        let startDrain = state.withLock { locked -> Bool in
            locked.state.queue.append(event)
            defer { locked.state.scheduled = true }
            return !locked.state.scheduled
        }
        if startDrain {
            let reference = IsolatedTarget(target)
            Task { [actor] in await drain(reference, on: actor) }
        }
    }

    /// Performs the queued signals on the actor, a batch at a time, until the queue is empty.
    @usableFromInline
    func drain(_ reference: IsolatedTarget<Target>, on actor: isolated any Actor) {
        while true {
            let batch = state.withLock { locked -> [Event] in
                if locked.state.queue.isEmpty { locked.state.scheduled = false }
                defer { locked.state.queue = [] }
                return locked.state.queue
            }
            if batch.isEmpty { return }
            for event in batch { reference.perform(event) }
        }
    }
}

extension ActorDelivery {
    /// The queue, shared with the drain task. Safe to send: it is reachable only through the
    /// lock, and the signals in it go to the one subscriber that would have received them on
    /// the sending thread (the values cross threads as they do through `receive(on:)`).
    @usableFromInline
    struct QueueState: @unchecked Sendable {
        @usableFromInline var state: State
        @inlinable init(_ state: State) { self.state = state }
    }
}

/// A reference to an ``ActorBoundSubscriber`` that may travel to its actor's drain task.
///
/// Safe because its one use, ``perform(_:)``, is called only isolated to the subscriber's
/// actor: from ``ActorDelivery/drain(_:on:)``, which runs on it. (The direct path for the
/// main actor calls the subscriber itself, having checked it runs on the main actor.) So the user code behind it runs in the
/// isolation it was written for and nowhere else, provided the actor is the one the compiler
/// filled in for `isolation:` (an argument passed by hand is the caller's claim, not checked).
@usableFromInline
struct IsolatedTarget<Target: ActorBoundSubscriber>: @unchecked Sendable {
    @usableFromInline let target: Target
    @inlinable init(_ target: Target) { self.target = target }
    @inlinable func perform(_ event: SubscriberEvent<Target.Input, Target.Failure>) { target.perform(event) }
}
