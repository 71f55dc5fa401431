/// The ordered action queue behind a ``ClockScheduler``: one FIFO drained by one runner at a time
/// (``DrainQueue``), on the scheduler's actor or the global concurrent executor.
///
/// ```text
/// idle ──schedule off the actor──▶ draining (a task drains the FIFO on the actor) ──FIFO empty──▶ idle
///   └─schedule on the main actor, from a main-actor queue─▶ draining (run inline, then the FIFO) ──▶ idle
/// draining ──schedule (anywhere, from inside an action too)──▶ draining (appended, runs in turn)
/// ```
///
/// The runner (a drain task, or a main-actor caller inline) finds the FIFO empty under the lock that ends its
/// run, so no action is left behind, runs twice or overlaps another. Only the main actor can run inline: it
/// alone has a non-trapping "isolated to it now" test (``isOnMainActorExecutor()``).
@usableFromInline
package final class ClockSchedulerQueue: Sendable {
    @usableFromInline typealias Action = @Sendable () -> Void

    @usableFromInline let state = Locked(DrainQueue<Action>())
    /// Nil: the global concurrent executor.
    @usableFromInline let actor: (any Actor)?
    @usableFromInline package let isMainActor: Bool

    @usableFromInline
    package init(actor: (any Actor)?) {
        self.actor = actor
        isMainActor = actor.map { $0 === MainActor.shared } ?? false
    }

    /// The one queue of every main-actor ``ClockScheduler``, so all their actions run in one order.
    @usableFromInline static let mainActor = ClockSchedulerQueue(actor: MainActor.shared)

    /// Runs `action` at once if the caller is on the main actor, this is its queue and it is idle; else
    /// appends it, starting a drain task (at `priority`) if no runner owns the FIFO.
    @inlinable
    func enqueue(_ action: @escaping Action, priority: TaskPriority?) {
        if isMainActor && isOnMainActorExecutor() && runInlineIfIdle(action) { return }
        if append(action) { startDrain(priority: priority) }
    }

    /// True when no runner owned the FIFO, so the caller must start one.
    @inlinable
    func append(_ action: @escaping Action) -> Bool {
        state.withLock { $0.append(action) }
    }

    /// On the main actor: takes the FIFO and runs `action`, then what was queued meanwhile; false if a runner
    /// owns it (the caller appends instead).
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

    func drain(on actor: isolated (any Actor)?) {
        runQueued(budget: DrainQueue<Action>.budget)
    }

    /// Actions one runner runs before handing the rest to a new task, so it does not hold its actor forever.
    package static var budget: Int { DrainQueue<Action>.budget }

    /// The caller owns the FIFO.
    func runQueued(budget: Int) {
        state.drain(\.self, budget: budget, perform: { $0() }, handOff: { startDrain(priority: nil) })
    }
}
