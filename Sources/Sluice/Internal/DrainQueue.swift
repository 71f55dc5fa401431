/// One FIFO drained by one runner at a time, in order, with a budget (behind ``ClockSchedulerQueue``,
/// ``ActorDelivery``, `print` and, with a scheduler's turn accounting, ``ScheduledTurns``). A plain value
/// under its owner's lock; the runner performs each item after unlocking.
///
/// ```text
/// idle ──append: the caller starts a runner──▶ draining ──FIFO empty, seen under the lock──▶ idle
///   └─claim: the caller runs inline, then drains─▶ draining
/// draining ──append (anywhere, from inside an item too)──▶ draining (runs in turn, no nesting)
/// draining ──budget spent with items left──▶ draining (the owner starts a new runner)
/// ```
///
/// While ``draining`` is set, exactly one runner owns the FIFO and finds it empty under the same lock that
/// clears the flag: no item is left behind, runs twice or overlaps another, and they run in append order.
/// The budget gives other work on the runner's actor (or thread) a turn while the FIFO keeps filling.
@usableFromInline
package struct DrainQueue<Item> {
    @usableFromInline var items = FIFO<Item>()
    /// A runner owns the FIFO: one is scheduled or running, or a caller runs inline.
    @usableFromInline package private(set) var draining = false

    @inlinable package init() {}

    /// Items a runner performs before it hands the rest to a new runner.
    @inlinable package static var budget: Int { 1024 }

    /// Appends `item`; true when no runner owned the FIFO, so the caller must start one.
    @inlinable
    package mutating func append(_ item: Item) -> Bool {
        items.append(item)
        defer { draining = true }
        return !draining
    }

    /// Makes the caller the runner, to perform something inline and then drain; false if one owns the FIFO.
    @inlinable
    package mutating func claim() -> Bool {
        if draining { return false }
        draining = true
        return true
    }

    /// Drops every item; the runner, if any, finds the FIFO empty and is gone.
    @inlinable
    package mutating func removeAll() { items = FIFO() }

    /// Gives up ownership with items left, for an owner whose runs are started by others (a scheduler's
    /// actions): the next ``append(_:)`` starts a runner again.
    @inlinable
    package mutating func release() { draining = false }

    @usableFromInline
    package enum Step {
        case perform(Item)
        /// The budget is spent with items left: start a new runner, which owns the FIFO now.
        case handOff
        /// The FIFO is empty: the runner is gone.
        case idle
    }

    @inlinable
    package mutating func next(budget: Int) -> Step {
        guard !items.isEmpty else {
            draining = false
            return .idle
        }
        guard budget > 0, let item = items.popFirst() else { return .handOff }
        return .perform(item)
    }
}

extension DrainQueue: Sendable where Item: Sendable {}

extension Locked {
    /// The runner's loop over the ``DrainQueue`` at `queue`: performs items after unlocking until it is
    /// empty, or after `budget` items calls `handOff` (unlocked) to start the next runner, the new owner.
    @inlinable
    package func drain<Item>(
        _ queue: WritableKeyPath<State, DrainQueue<Item>>, budget: Int = DrainQueue<Item>.budget,
        perform: (Item) -> Void, handOff: () -> Void
    ) {
        var budget = budget
        while true {
            switch withLock({ $0[keyPath: queue].next(budget: budget) }) {
            case .perform(let item):
                budget -= 1
                perform(item)
            case .handOff:
                return handOff()
            case .idle:
                return
            }
        }
    }
}
