/// The state of one subscriber of a subject (its *conduit*); ``SubjectStorage`` runs every
/// transition under the subject's one lock and calls the subscriber after unlocking.
///
/// Signals to one subscriber must never overlap (rule 3), even when many threads call
/// `send`, yet no lock may be held while calling it (rule 6). So the first sender to find the
/// conduit `idle` becomes the *deliverer*; a value sent while someone is delivering is
/// counted against demand at once and queued, and the deliverer delivers the queue (and a
/// completion that arrived meanwhile) before it leaves. A re-entrant `send` from inside
/// `receive(_:)` is queued the same way and delivered after that `receive` returns.
///
/// Fast path: a deliverer whose `receive` added no demand leaves `delivering` without the
/// lock, by one compare-exchange on the receiver's flag (``SubjectReceiver/tryLeave()``);
/// anything that happens to a `delivering` conduit under the lock (queue, completion,
/// cancel) first sets that flag, so the deliverer then comes back under the lock instead
/// (``deliveringAndNotified()``). `delivering` with the flag cleared reads as `idle`.
///
/// ```
///                 offer with demand / first request (current value)
///         idle ─────────────────────────────────────────▶ delivering
///          ▲  ◀── after delivery, queue empty, no completion ──┘ │  offer with demand: queue it
///          │                                                     │  finish: keep it for later
///          │ finish: deliver completion        after delivery, queue empty, completion kept:
///          ▼                                                     ▼  deliver completion
///      terminated ◀──────────────────────────────────────────────┘
///   (cancel removes the conduit's entry from the subject's storage; while delivering, it
///    only marks it, and the deliverer removes it and releases the subscriber on return)
/// ```
/// A value offered without demand is dropped (that is a subject's contract).
@usableFromInline
struct ConduitStateMachine<Output, Failure: Error> {
    @usableFromInline typealias Receiver = SubjectReceiver<Output, Failure>

    @usableFromInline
    enum Phase: Sendable {
        case idle
        case delivering
        case terminated
    }

    @usableFromInline var phase = Phase.idle
    /// The subscriber's closures; `nil` once terminated.
    @usableFromInline var receiver: Receiver?
    @usableFromInline private(set) var demand = Subscribers.Demand.none
    /// Values already counted against demand, waiting for the deliverer.
    @usableFromInline var queue = FIFO<Output>()
    @usableFromInline var pendingCompletion: Subscribers.Completion<Failure>?
    /// Cancelled while delivering; the deliverer removes the entry when it comes back.
    @usableFromInline var cancelledWhileDelivering = false
    /// `CurrentValueSubject`: the current value goes out with the first demand.
    @usableFromInline var currentValuePending: Bool

    @usableFromInline
    init(receiver: Receiver, deliversCurrentValue: Bool) {
        self.receiver = receiver
        currentValuePending = deliversCurrentValue
    }

    @inlinable var isTerminated: Bool { if case .terminated = phase { true } else { false } }

    /// What the deliverer does next.
    @usableFromInline
    enum DeliveryAction {
        case stop
        case deliver(BorrowedReceiver<Output, Failure>, Output)
        case complete(Receiver, Subscribers.Completion<Failure>)
        /// Cancelled during the delivery: the entry is to be removed and released.
        case cancelled
    }

    /// A sender offers a value. Returns the closure to deliver it with if the caller becomes
    /// the deliverer; `nil` if the value was dropped (no demand, terminated) or queued.
    @inlinable
    mutating func offer(_ value: Output) -> BorrowedReceiver<Output, Failure>? {
        guard !isTerminated, !cancelledWhileDelivering, demand > 0 else { return nil }
        demand -= 1
        if deliveringAndNotified() {
            queue.append(value)
            return nil
        }
        guard let receiver else { return nil }
        phase = .delivering
        receiver.setDelivering(hasNews: false)
        return BorrowedReceiver(receiver)
    }

    /// Whether a deliverer is out calling the subscriber; if so, it is told (through the
    /// receiver's flag) to come back under the lock instead of leaving by the fast path.
    /// A deliverer that already left by the fast path makes the conduit idle here.
    @inlinable
    mutating func deliveringAndNotified() -> Bool {
        guard case .delivering = phase else { return false }
        if receiver?.notifyDeliverer() == true { return true }
        phase = .idle
        return false
    }

    /// The deliverer's `receive` returned `more`. Returns the next thing to deliver, or
    /// `.stop` (idle again, or terminated meanwhile).
    @inlinable
    mutating func delivered(more: Subscribers.Demand) -> DeliveryAction {
        guard case .delivering = phase else { return .stop }
        if cancelledWhileDelivering { return .cancelled }
        demand += more
        if let receiver, let value = queue.popFirst() {
            receiver.setDelivering(hasNews: !queue.isEmpty || pendingCompletion != nil)
            return .deliver(BorrowedReceiver(receiver), value)
        }
        if let completion = pendingCompletion, let receiver {
            terminate()
            return .complete(receiver, completion)
        }
        phase = .idle
        receiver?.setIdle()
        return .stop
    }

    /// The subscriber requests more. For a pending current value, `currentValue` supplies it
    /// and the caller becomes the deliverer.
    mutating func request(_ more: Subscribers.Demand, currentValue: () -> Output?) -> DeliveryAction {
        guard !isTerminated, !cancelledWhileDelivering else { return .stop }
        demand += more
        if case .delivering = phase, receiver?.isDelivering == false { phase = .idle }  // left by the fast path
        guard currentValuePending, case .idle = phase, let receiver, let value = currentValue() else {
            return .stop
        }
        currentValuePending = false
        demand -= 1
        phase = .delivering
        receiver.setDelivering(hasNews: false)
        return .deliver(BorrowedReceiver(receiver), value)
    }

    /// The subscriber cancels while its deliverer is out calling it. Returns `false` if not
    /// delivering: then the caller removes the entry at once. Otherwise nothing more is
    /// delivered, and the deliverer removes the entry (and releases the subscriber) when it
    /// comes back, so the receiver it borrowed stays alive until then.
    mutating func cancelIfDelivering() -> Bool {
        guard deliveringAndNotified() else { return false }
        cancelledWhileDelivering = true
        return true
    }

    /// The subject completes. Returns the completion to deliver now, or `.stop` if the
    /// deliverer will deliver it after the queue (or the conduit already terminated).
    mutating func finish(_ completion: Subscribers.Completion<Failure>) -> DeliveryAction {
        _ = deliveringAndNotified()
        switch phase {
        case .terminated:
            return .stop
        case .delivering:
            if !cancelledWhileDelivering { pendingCompletion = completion }
            return .stop
        case .idle:
            guard let receiver else { return .stop }
            terminate()
            return .complete(receiver, completion)
        }
    }

    @usableFromInline
    mutating func terminate() {
        phase = .terminated
        receiver = nil
        queue = FIFO()
        pendingCompletion = nil
    }
}

extension ConduitStateMachine: Sendable where Output: Sendable {}
