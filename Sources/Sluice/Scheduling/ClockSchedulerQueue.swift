/// The ordered action queue behind a ``ClockScheduler``: one FIFO of actions, drained by one
/// runner at a time, on the scheduler's actor or on the global concurrent executor.
///
/// ```text
/// idle ──schedule off the actor──▶ draining (a task drains the FIFO on the actor) ──FIFO empty──▶ idle
///   └─schedule on the main actor, from a main-actor queue─▶ draining (run inline, then the FIFO) ──▶ idle
/// draining ──schedule (anywhere, from inside an action too)──▶ draining (appended, runs in turn)
/// ```
///
/// While `draining` is set, exactly one runner (a drain task, or a main-actor caller running
/// inline) owns the FIFO and runs its actions one at a time until it finds it empty, which it
/// notes under the same lock: so no action is ever left behind, none runs twice, none overlaps
/// another, and they run in the order they were appended (``DrainQueue``). An action scheduled
/// from inside a running one is appended, and runs after it (no nesting). A runner that has
/// spent its budget hands the FIFO, still owned, to a new drain task.
///
/// Inline running needs a non-trapping test for "isolated to this actor now": only the main
/// actor has one (``isOnMainActorExecutor()``). Any other actor's actions always hop.
@usableFromInline
package final class ClockSchedulerQueue: Sendable {
    @usableFromInline typealias Action = @Sendable () -> Void

    @usableFromInline let state = Locked(DrainQueue<Action>())
    /// Where actions run: isolated to this actor, or (nil) on the global concurrent executor.
    @usableFromInline let actor: (any Actor)?
    /// `actor` is the main actor, which code can be seen to run on already.
    @usableFromInline package let isMainActor: Bool

    @usableFromInline
    package init(actor: (any Actor)?) {
        self.actor = actor
        isMainActor = actor.map { $0 === MainActor.shared } ?? false
    }

    /// The one queue of every main-actor ``ClockScheduler``, so that actions scheduled through
    /// any of them run in one order.
    @usableFromInline static let mainActor = ClockSchedulerQueue(actor: MainActor.shared)

    /// Runs `action` at once if the caller is on the main actor, this is a main-actor queue and
    /// nothing is queued or running; otherwise appends it, starting a drain task (at `priority`)
    /// if no runner owns the FIFO.
    @inlinable
    func enqueue(_ action: @escaping Action, priority: TaskPriority?) {
        if isMainActor && isOnMainActorExecutor() && runInlineIfIdle(action) { return }
        if append(action) { startDrain(priority: priority) }
    }

    /// Appends `action`; true when no runner owned the FIFO, so the caller must start one.
    @inlinable
    func append(_ action: @escaping Action) -> Bool {
        state.withLock { $0.append(action) }
    }

    /// Takes the FIFO and runs `action`, then whatever was queued meanwhile, unless a runner
    /// owns it (false: the caller appends instead). Called only on the main actor.
    @usableFromInline
    func runInlineIfIdle(_ action: Action) -> Bool {
        guard state.withLock({ $0.claim() }) else { return false }
        action()
        runQueued(budget: DrainQueue<Action>.budget - 1)
        return true
    }

    @usableFromInline
    func startDrain(priority: TaskPriority?) {
        Task(priority: priority) { await self.drain(on: self.actor) }
    }

    /// Runs the queued actions isolated to `actor` (nil: on the global executor), then gives
    /// up the FIFO.
    func drain(on actor: isolated (any Actor)?) {
        runQueued(budget: DrainQueue<Action>.budget)
    }

    /// Actions one runner runs before it hands the rest to a new drain task, so that a queue
    /// that keeps filling does not hold its actor (or a thread of the global executor) forever.
    package static var budget: Int { DrainQueue<Action>.budget }

    /// Runs the queued actions in order (see ``DrainQueue``); the caller owns the FIFO.
    func runQueued(budget: Int) {
        state.drain(\.self, budget: budget, perform: { $0() }, handOff: { startDrain(priority: nil) })
    }
}
