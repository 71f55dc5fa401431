/// Items (signals, calls upstream) a scheduler runs for `receive(on:)` and `subscribe(on:)`, in order and
/// one at a time whatever order a concurrent scheduler runs its actions in: a ``DrainQueue`` and the
/// accounting of the scheduler's actions. Kept under its owner's lock; the owner runs each item after
/// unlocking, then asks for the next. Two policies:
/// - **one action per item**, as Combine schedules, on schedulers Sluice does not own (a test scheduler
///   counts the calls): each action takes the oldest item, and one that finds another item running leaves
///   its turn to that thread (`turnsLeft`), which runs one more item for it;
/// - **one action for what is queued** on a ``CoalescingScheduler``: an item that finds an action pending
///   schedules none, and the action runs at most ``DrainQueue/budget`` items, then reschedules itself so
///   other work gets its turn. No allocation per item.
///
/// ```text
/// append ──▶ true: the owner schedules one action (always, or when none is pending)
/// actionRan ──nothing running──▶ the oldest item: run it, then finished() until not .run
///           ──one running──▶ nil (it runs this turn's item too)
/// ```
@usableFromInline
struct ScheduledTurns<Item> {
    @usableFromInline
    enum Next {
        case run(Item)
        case done
        /// The run used its budget with items left: schedule the action again.
        case reschedule
    }

    /// The items; its owner flag is the coalescing action's: scheduled or running.
    @usableFromInline var queue = DrainQueue<Item>()
    @usableFromInline let coalesces: Bool
    /// A thread is running an item (or, for `receive(on:)`, giving the downstream its subscription).
    @usableFromInline var running = false
    /// Actions that ran while another thread was running an item (coalescing: only whether any did).
    @usableFromInline var turnsLeft = 0
    /// What the coalescing run in progress may still run.
    @usableFromInline var budgetLeft = 0

    @inlinable init(coalesces: Bool) { self.coalesces = coalesces }

    /// Queues `item`; true when the owner must schedule an action for it.
    @inlinable
    mutating func append(_ item: Item) -> Bool {
        let noActionPending = queue.append(item)
        return !coalesces || noActionPending
    }

    /// A scheduled action ran: the item to run now, or nil when there is none or another thread runs it.
    @inlinable
    mutating func actionRan() -> Item? {
        guard !running else {
            turnsLeft += 1
            return nil
        }
        budgetLeft = DrainQueue<Item>.budget
        guard case .perform(let item) = queue.next(budget: 1) else { return nil }
        running = true
        return item
    }

    @inlinable
    mutating func finished() -> Next {
        // Coalescing: the run goes on within its budget. One action per item: each action that found this
        // thread running left it its turn.
        switch queue.next(budget: coalesces ? budgetLeft - 1 : turnsLeft) {
        case .perform(let item):
            if coalesces { budgetLeft -= 1 } else { turnsLeft -= 1 }
            return .run(item)
        case .handOff where coalesces:
            running = false
            turnsLeft = 0
            return .reschedule  // the queue stays owned: the rescheduled action is pending
        case .handOff, .idle:
            running = false
            turnsLeft = 0
            queue.release()
            return .done
        }
    }

    /// Marks a run in progress that is not one of the items (the caller then calls `finished()`).
    @inlinable
    mutating func begin() {
        running = true
        budgetLeft = DrainQueue<Item>.budget
    }

    /// Drops every item waiting; actions still scheduled then find nothing.
    @inlinable
    mutating func removeAll() { queue.removeAll() }
}

/// A scheduler of Sluice's own, whose calls no outside code counts, so operators may call it as suits them:
/// `debounce` and `throttle` keep one timer per burst on it (``TimedSubscription``); on any other scheduler
/// they make Combine's calls, which a test scheduler may check.
@usableFromInline
package protocol OwnScheduler {}

/// A scheduler of Sluice's own that runs actions later: `receive(on:)` and `subscribe(on:)` hand it one
/// action for all that is queued instead of one per signal (see ``ScheduledTurns``).
@usableFromInline
package protocol CoalescingScheduler: OwnScheduler {}
