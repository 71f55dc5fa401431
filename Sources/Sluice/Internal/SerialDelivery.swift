/// One subscriber's one-at-a-time delivery when signals come from many threads: the demand, the
/// *deliverer* (the one thread out calling the subscriber), and the values and completion that arrived
/// while it was out. A plain value under its owner's lock; the owner calls the subscriber after unlocking
/// (rule 6). Subjects' conduits, `Emitting` and the operators that merge several upstreams share it.
///
/// Each step is under the owner's lock: a sender calls ``admit(_:)`` (refused without demand, else the
/// demand is taken at once and the sender becomes the deliverer or queues its value); the deliverer, back
/// with the subscriber's demand, calls ``next(adding:)`` until `.idle`; a completion goes through
/// ``finish(_:)`` (delivered at once if no one is delivering, else after the queue). So signals never
/// overlap (rule 3), values keep their admission order, and the queue never exceeds the demand (rule 2).
///
/// Bounded hand-over: with `.unlimited` demand, senders outpacing the deliverer would grow the queue
/// without limit, so a sender on another thread whose value queued behind more than ``bound`` others waits
/// (as Combine's senders wait for the subscriber's lock) in ``Locked/holdSender(_:)``, on ``senders``, while
/// ``mustHold(_:)`` says so. The deliverer wakes them at half the bound; ``finish(_:)``, ``reset()`` and
/// ``dropQueued()`` wake them too. A sender on the deliverer's own thread (a re-entrant `send`) never waits,
/// so the queue holds at most ``bound`` plus one per waiting sender plus what the deliverer's calls add.
///
/// ```text
///  sender: admit ─▶ queued, count > bound, not the deliverer's thread ─▶ wait on `senders`
///                                                                          │  (lock released)
///  deliverer: next ─▶ count fell to bound / 2 ─▶ broadcast ───────────────▶ re-check, return
///  finish / reset / dropQueued ─▶ broadcast
/// ```
@usableFromInline
package struct SerialDelivery<Output, Failure: Error> {
    /// Demand requested and not yet taken by an admitted value.
    @usableFromInline package var demand = Subscribers.Demand.none
    @usableFromInline package var delivering = false
    /// Values admitted while the deliverer was out, each already counted against demand.
    @usableFromInline package var queue = FIFO<Output>()
    @usableFromInline package var pendingCompletion: Subscribers.Completion<Failure>?
    /// The deliverer's thread, set when it is elected; a sender on that thread never waits.
    @usableFromInline package var deliverer: UInt = 0
    /// Where senders wait while the queue is over ``bound``; made by the first one.
    @usableFromInline package var senders: LockCondition?

    /// How many values may wait in the queue before a sender from another thread waits too.
    @inlinable package static var bound: Int { 16 }

    @inlinable package init() {}

    /// What a sender does with its value: `refused` without demand (dropped, or kept by the sender), `queued`
    /// behind the deliverer, or `deliver` it itself as the new deliverer.
    @usableFromInline
    package enum Admission {
        case refused
        case queued
        case deliver
    }

    @usableFromInline
    package enum Next {
        case value(Output)
        /// The last signal: the owner terminates.
        case completion(Subscribers.Completion<Failure>)
        /// Nothing left: the deliverer is gone.
        case idle
    }

    /// Whether the deliverer has something more to deliver after the current signal.
    @inlinable package var hasMore: Bool { !queue.isEmpty || pendingCompletion != nil }

    /// A completion is kept for the deliverer: nothing more may be admitted.
    @inlinable package var isFinishing: Bool { pendingCompletion != nil }

    @inlinable
    package mutating func admit(_ value: Output) -> Admission {
        guard demand > 0, pendingCompletion == nil else { return .refused }
        demand -= 1
        if delivering {
            queue.append(value)
            return .queued
        }
        enter()
        return .deliver
    }

    /// The caller becomes the deliverer with no value (it hands over the subscription first): what
    /// arrives meanwhile queues behind it.
    @inlinable
    package mutating func enter() {
        delivering = true
        deliverer = currentThreadIdentity()
    }

    /// The deliverer left without coming back under the lock (a subject's fast path, its receiver's flag).
    @inlinable
    package mutating func delivererLeft() {
        delivering = false
    }

    /// The deliverer is back, and the subscriber asked for `more`.
    @inlinable
    package mutating func next(adding more: Subscribers.Demand) -> Next {
        demand += more
        if let value = queue.popFirst() {
            if queue.count == Self.bound / 2, let senders { senders.broadcast() }
            return .value(value)
        }
        if let completion = pendingCompletion {
            pendingCompletion = nil
            delivering = false
            return .completion(completion)
        }
        delivering = false
        return .idle
    }

    /// The stream ends: `true` if the caller delivers `completion` now; `false` if the deliverer will, after
    /// the queue (a second completion is ignored).
    @inlinable
    package mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard delivering else { return true }
        if pendingCompletion == nil { pendingCompletion = completion }
        senders?.broadcast()
        return false
    }

    /// Drops the whole stream's state (after a cancel or a completion) and wakes the waiting senders.
    @inlinable
    package mutating func reset() {
        let senders = senders
        self = SerialDelivery()
        if let senders {
            senders.broadcast()
            self.senders = senders
        }
    }

    /// Drops what is queued but keeps the deliverer out (cancelled mid-delivery, it is told on return),
    /// and wakes the waiting senders.
    @inlinable
    package mutating func dropQueued() {
        if !queue.isEmpty { queue = FIFO() }
        senders?.broadcast()
    }

    /// Drops what is queued and gives its demand back: those values must never go out (their inner was
    /// switched away from), and the demand is for what comes next.
    @inlinable
    package mutating func withdrawQueued() {
        demand += .max(queue.count)
        dropQueued()
    }

    /// Whether a sender on thread `sender` waits now: more than ``bound`` values are queued for a
    /// deliverer on another thread, and the stream is not ending.
    @inlinable
    package func mustHold(_ sender: UInt) -> Bool {
        queue.count > Self.bound && delivering && pendingCompletion == nil && deliverer != sender
    }

    /// The condition a sender on thread `sender` waits on, if ``mustHold(_:)``; made on first need.
    @inlinable
    package mutating func holdCondition(for sender: UInt) -> LockCondition? {
        guard mustHold(sender) else { return nil }
        if let senders { return senders }
        let made = LockCondition()
        senders = made
        return made
    }

    /// The cheap first check, in the sender's step, that it may have to wait (``Locked/holdSender(_:)``).
    @inlinable package var isOverBound: Bool { queue.count > Self.bound }
}

extension SerialDelivery: Sendable where Output: Sendable {}

extension Locked {
    /// The sender's wait of a bounded hand-over: blocks while `body`, given the state and this thread's
    /// identity, returns a condition (typically ``SerialDelivery/holdCondition(for:)``). Call it with no
    /// lock held, only after a step that queued a value over the bound (``SerialDelivery/isOverBound``).
    @inlinable
    package func holdSender(_ body: (inout State, UInt) -> LockCondition?) {
        let sender = currentThreadIdentity()
        wait { state in body(&state, sender) }
    }
}

extension Locked {
    /// The deliverer's loop over a ``SerialDelivery`` in this lock's state: delivers `next` to `downstream`,
    /// hands the demand it returns to `delivered` under the lock (which answers with an action and what to
    /// deliver next), runs `carryOut` on that action after unlocking, until nothing is left.
    @inlinable
    package func deliver<Downstream: Subscriber, Action>(
        _ next: SerialDelivery<Downstream.Input, Downstream.Failure>.Next, to downstream: Downstream,
        delivered: (inout State, Subscribers.Demand)
            -> (Action, SerialDelivery<Downstream.Input, Downstream.Failure>.Next),
        carryOut: (Action) -> Void
    ) {
        var next = next
        while case .value(let value) = next {
            let more = downstream.receive(value)
            let action: Action
            (action, next) = withLock { delivered(&$0, more) }
            carryOut(action)
        }
        if case .completion(let completion) = next { downstream.receive(completion: completion) }
    }
}
