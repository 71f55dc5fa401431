/// Items (signals, calls upstream) a scheduler runs for `receive(on:)` and `subscribe(on:)`, in order and
/// one at a time whatever order a concurrent scheduler runs its actions in. Kept under its owner's lock;
/// the owner runs each item after unlocking, then asks for the next. Two policies:
/// - **one action per item**, as Combine schedules, on schedulers Sluice does not own (a test scheduler
///   counts the calls): each action takes the oldest item, and one that finds another item running leaves
///   its turn to that thread (`turnsLeft`), which runs one more item for it;
/// - **one action for what is queued** on a ``CoalescingScheduler``: an item that finds an action pending
///   schedules none, and the action runs at most ``budget`` items, then reschedules itself so other work
///   gets its turn. No allocation per item.
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

    /// Items per run of a coalescing action.
    @inlinable static var budget: Int { 1024 }

    @usableFromInline var items = FIFO<Item>()
    @usableFromInline let coalesces: Bool
    /// A thread is running an item (or, for `receive(on:)`, giving the downstream its subscription).
    @usableFromInline var running = false
    /// Actions that ran while another thread was running an item (coalescing: only whether any did).
    @usableFromInline var turnsLeft = 0
    /// Coalescing: an action is scheduled or running.
    @usableFromInline var pending = false
    @usableFromInline var budgetLeft = 0

    @inlinable init(coalesces: Bool) { self.coalesces = coalesces }

    /// Queues `item`; true when the owner must schedule an action for it.
    @inlinable
    mutating func append(_ item: Item) -> Bool {
        items.append(item)
        guard coalesces else { return true }
        if pending { return false }
        pending = true
        return true
    }

    /// A scheduled action ran: the item to run now, or nil when there is none or another thread runs it.
    @inlinable
    mutating func actionRan() -> Item? {
        guard !running else {
            turnsLeft += 1
            return nil
        }
        budgetLeft = Self.budget
        guard let item = items.popFirst() else {
            pending = false
            return nil
        }
        running = true
        return item
    }

    @inlinable
    mutating func finished() -> Next {
        if coalesces {
            guard !items.isEmpty else { return stop() }
            guard budgetLeft > 1 else {
                running = false
                turnsLeft = 0
                return .reschedule  // still pending
            }
            budgetLeft -= 1
            return .run(items.popFirst()!)
        }
        guard turnsLeft > 0, let item = items.popFirst() else { return stop() }
        turnsLeft -= 1
        return .run(item)
    }

    /// Marks a run in progress that is not one of the items (the caller then calls `finished()`).
    @inlinable
    mutating func begin() {
        running = true
        budgetLeft = Self.budget
    }

    /// Drops every item waiting; actions still scheduled then find nothing.
    @inlinable
    mutating func removeAll() { items = FIFO() }

    @inlinable
    mutating func stop() -> Next {
        running = false
        turnsLeft = 0
        pending = false
        return .done
    }
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
