/// One subscriber's one-at-a-time delivery when signals come from many threads: the demand, the
/// *deliverer* (the one thread out calling the subscriber), the values and the completion that
/// arrived while it was out. A plain value, kept under its owner's lock; the owner calls the
/// subscriber after unlocking (rule 6). Subjects' conduits and `Emitting` share it, and so will
/// every operator that merges signals from several threads.
///
/// The protocol, each step under the owner's lock:
/// - a sender calls ``admit(_:)``: the value is refused without demand; otherwise the demand is
///   taken at once and, if no one is delivering, the sender becomes the deliverer and delivers
///   it itself, else it is queued;
/// - the deliverer, back from the subscriber with the demand it returned, calls
///   ``next(adding:)`` and delivers what that gives, until `.idle`;
/// - a completion goes through ``finish(_:)``: delivered at once if no one is delivering, else
///   kept, and the deliverer delivers it after the queue.
/// So signals never overlap (rule 3), values go out in the order they were admitted, and the
/// queue never holds more than the demand that was outstanding (rule 2).
///
/// Bounded hand-over: with `.unlimited` demand nothing above bounds the queue, and senders
/// that outpace the deliverer would grow it without limit. So a sender whose value was queued
/// behind more than ``bound`` others, on another thread than the deliverer's, waits before it
/// returns (as Combine's senders wait for the subscriber's lock): the owner calls
/// ``Locked/holdSender(_:)`` after its step, which blocks while ``mustHold(_:)`` says so, on
/// the condition ``senders``. The deliverer wakes the waiters when the queue has drained to
/// half the bound; ``finish(_:)``, ``reset()`` and ``dropQueued()`` wake them too (a sender
/// whose subscriber went away, or whose stream is ending, returns at once). A sender on the
/// deliverer's own thread (a re-entrant `send` from inside `receive(_:)`, an upstream that
/// sends inside the deliverer's `request`) never waits: its value is delivered after the call
/// returns, as before. The queue holds at most ``bound`` values plus one per waiting sender
/// plus what the deliverer's own calls add. The waiting costs nothing while no queue is over
/// the bound: the deliverer's thread is recorded when it is elected, and `next` compares one
/// count.
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
    /// A deliverer is out calling the subscriber.
    @usableFromInline package var delivering = false
    /// Values admitted while the deliverer was out, each already counted against demand.
    @usableFromInline package var queue = FIFO<Output>()
    /// A completion that arrived while the deliverer was out.
    @usableFromInline package var pendingCompletion: Subscribers.Completion<Failure>?
    /// The deliverer's thread (``currentThreadIdentity()``), set when it is elected; a sender
    /// on that thread never waits.
    @usableFromInline package var deliverer: UInt = 0
    /// Where senders wait while the queue is over ``bound``; made by the first one.
    @usableFromInline package var senders: LockCondition?

    /// How many values may wait in the queue before a sender from another thread waits too.
    @inlinable package static var bound: Int { 16 }

    @inlinable package init() {}

    /// What a sender does with the value it offered.
    @usableFromInline
    package enum Admission {
        /// No demand: the value is dropped (or kept by the sender).
        case refused
        /// Someone is delivering: it delivers this value in turn.
        case queued
        /// The sender is now the deliverer: it delivers the value itself.
        case deliver
    }

    /// What the deliverer delivers next.
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

    /// A sender offers `value`.
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

    /// The caller becomes the deliverer without a value to deliver (it hands the subscriber
    /// its subscription first): what arrives meanwhile queues behind it.
    @inlinable
    package mutating func enter() {
        delivering = true
        deliverer = currentThreadIdentity()
    }

    /// The deliverer left without coming back under the lock (a subject's fast path, seen
    /// through its receiver's flag): nobody delivers now.
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

    /// The stream ends. Returns `true` if the caller delivers `completion` now; `false` if the
    /// deliverer will, after the queue (a second completion is ignored).
    @inlinable
    package mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard delivering else { return true }
        if pendingCompletion == nil { pendingCompletion = completion }
        senders?.broadcast()
        return false
    }

    /// Drops what is queued (after a cancel or a completion), keeping nothing of the stream,
    /// and wakes the senders waiting.
    @inlinable
    package mutating func reset() {
        let senders = senders
        self = SerialDelivery()
        if let senders {
            senders.broadcast()
            self.senders = senders
        }
    }

    /// Drops what is queued but keeps the deliverer out (cancelled while it delivers: it is
    /// told on return), and wakes the senders waiting.
    @inlinable
    package mutating func dropQueued() {
        if !queue.isEmpty { queue = FIFO() }
        senders?.broadcast()
    }

    /// Drops what is queued and gives its demand back: those values must never go out (the
    /// inner that sent them was switched away from), and the demand is for what comes next.
    @inlinable
    package mutating func withdrawQueued() {
        demand += .max(queue.count)
        dropQueued()
    }

    /// Whether a sender on thread `sender` waits now: its value (or another's) is queued
    /// behind more than ``bound`` others for a deliverer on another thread, and the stream is
    /// not ending.
    @inlinable
    package func mustHold(_ sender: UInt) -> Bool {
        queue.count > Self.bound && delivering && pendingCompletion == nil && deliverer != sender
    }

    /// The condition a sender on thread `sender` waits on, if it must wait now (see
    /// ``mustHold(_:)``); made on first need.
    @inlinable
    package mutating func holdCondition(for sender: UInt) -> LockCondition? {
        guard mustHold(sender) else { return nil }
        if let senders { return senders }
        let made = LockCondition()
        senders = made
        return made
    }

    /// Whether a sender's value just queued may make it wait (the cheap first check, made
    /// under the lock in the sender's step: the wait itself is in ``Locked/holdSender(_:)``).
    @inlinable package var isOverBound: Bool { queue.count > Self.bound }
}

extension SerialDelivery: Sendable where Output: Sendable {}

extension Locked {
    /// The sender's wait of a bounded hand-over (see ``SerialDelivery``): blocks while `body`,
    /// given the state and this thread's identity, returns a condition to wait on (typically
    /// some delivery's ``SerialDelivery/holdCondition(for:)``), and returns at once otherwise.
    /// Call it after the sender's step, with no lock held, only when that step queued a value
    /// over the bound (``SerialDelivery/isOverBound``).
    @inlinable
    package func holdSender(_ body: (inout State, UInt) -> LockCondition?) {
        let sender = currentThreadIdentity()
        wait { state in body(&state, sender) }
    }
}

extension Locked {
    /// The deliverer's loop, for an owner whose state (behind this lock) holds a
    /// ``SerialDelivery``: delivers `next` to `downstream`, hands the demand it returns to
    /// `delivered` under the lock (which answers with an action and what to deliver next),
    /// runs `carryOut` on that action after unlocking, and goes on until nothing is left.
    /// Every multi-upstream operator (merge, flatMap, switchToLatest, zip, combineLatest,
    /// asyncMap) delivers through it.
    @inlinable
    package func deliver<Downstream: Subscriber, Action>(
        _ next: SerialDelivery<Downstream.Input, Downstream.Failure>.Next, to downstream: Downstream,
        delivered: (inout State, Subscribers.Demand) -> (Action, SerialDelivery<Downstream.Input, Downstream.Failure>.Next),
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
