/// Items (signals, calls upstream) that a scheduler runs for `receive(on:)` and
/// `subscribe(on:)`, in order and one at a time whatever order a concurrent scheduler runs its
/// actions in. Kept under its owner's lock; the owner runs each item it is given after
/// unlocking, then asks for the next.
///
/// Two policies, chosen by the scheduler:
/// - **one action per item**, as Combine schedules, for any scheduler Sluice does not own (a
///   test scheduler counts the calls): the actions do not carry their item; each action that
///   runs takes the oldest, and one that finds another item running leaves its turn to that
///   thread (`turnsLeft`), which runs one more item for it when it is done;
/// - **one action for what is queued** on Sluice's own schedulers (``CoalescingScheduler``):
///   an item that finds an action pending schedules none, and the action runs the items in
///   runs of at most ``budget``, scheduling itself again after each, so other work on the
///   scheduler still gets its turn. No allocation per item, where a dispatch queue allocates
///   for every action.
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
    /// One action per item: actions that ran while another thread was running an item.
    /// Coalescing: nonzero when an action ran meanwhile (the runner goes on for it).
    @usableFromInline var turnsLeft = 0
    /// Coalescing: an action is scheduled or running.
    @usableFromInline var pending = false
    /// Coalescing: items the current run may still take.
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

    /// A scheduled action ran: the item to run now, or nil when there is none or another
    /// thread runs it.
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

    /// The item just run is done: what comes next.
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

/// A scheduler of Sluice's own, whose calls no code outside Sluice counts: its operators may
/// call it as suits them rather than as Combine's do. `debounce` and `throttle` keep one
/// timer for a whole burst on it (``TimedSubscription``); on any other scheduler they make
/// Combine's calls, which a scheduler written for Combine (a test scheduler that records its
/// calls) may check.
@usableFromInline
package protocol OwnScheduler {}

/// A scheduler of Sluice's own that runs actions later (dispatch queues, run loops, operation
/// queues, the actor schedulers): `receive(on:)` and `subscribe(on:)` hand it one action for
/// all that is queued instead of one per signal (see ``ScheduledTurns``).
@usableFromInline
package protocol CoalescingScheduler: OwnScheduler {}
