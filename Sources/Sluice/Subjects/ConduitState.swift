/// The state of one subscriber of a subject (its *conduit*); ``SubjectStorage`` runs every
/// transition under the subject's one lock and calls the subscriber after unlocking.
///
/// Signals to one subscriber must never overlap (rule 3), even when many threads call
/// `send`, yet no lock may be held while calling it (rule 6). That is ``SerialDelivery``'s
/// protocol: the first sender to find the conduit `idle` becomes the *deliverer*; a value sent
/// while someone is delivering is counted against demand at once and queued, and the
/// deliverer delivers the queue (and a completion that arrived meanwhile) before it leaves. A
/// re-entrant `send` from inside `receive(_:)` is queued the same way and delivered after that
/// `receive` returns. What the conduit adds: the fast path below, the current value, and
/// cancel while delivering. The queue is bounded as ``SerialDelivery`` says: a sender on
/// another thread waits (in ``SubjectStorage/holdSender()``) while it is over the bound.
///
/// Fast path: a deliverer whose `receive` added no demand leaves `delivering` without the
/// lock, by one compare-exchange on the receiver's flag (``SubjectReceiver/tryLeave()``);
/// anything that happens to a `delivering` conduit under the lock (queue, completion,
/// cancel) first sets that flag, so the deliverer then comes back under the lock instead
/// (``deliveringAndNotified()``). `delivering` with the flag cleared reads as `idle`.
///
/// ```text
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
/// A value offered without demand is dropped (that is a subject's contract). A
/// `CurrentValueSubject` then owes the subscriber its current value, as Combine's does: the
/// subscriber's next `request` delivers the subject's value at that moment (at once, or when
/// a deliverer out calling it returns), and a value delivered meanwhile settles the debt.
@usableFromInline
struct ConduitState<Output, Failure: Error> {
    @usableFromInline typealias Receiver = SubjectReceiver<Output, Failure>

    /// The demand, the deliverer, the queue and a completion kept for the deliverer. Its
    /// `delivering` stays set when the deliverer leaves by the fast path; the receiver's flag
    /// then reads 0, and ``deliveringAndNotified()`` clears it.
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    @usableFromInline private(set) var isTerminated = false
    /// The subscriber's closures; `nil` once terminated.
    @usableFromInline var receiver: Receiver?
    /// Cancelled while delivering; the deliverer removes the entry when it comes back.
    @usableFromInline var cancelledWhileDelivering = false
    /// That cancel was told the delivery was out: the deliverer calls the receiver's
    /// `deliveryEnded` when it comes back (see ``DeferredCancelSubscription``).
    @usableFromInline var reportsDeliveryEnd = false
    /// `CurrentValueSubject`: a value dropped for want of demand makes the current value
    /// pending again.
    @usableFromInline let tracksCurrentValue: Bool
    /// `CurrentValueSubject`: the subscriber has not had the current value (none yet, or the
    /// latest was dropped); its next `request` delivers it.
    @usableFromInline var currentValuePending: Bool
    /// A `request` found the current value pending while a deliverer was out calling the
    /// subscriber: the deliverer delivers it when it comes back and finds nothing queued.
    @usableFromInline var currentValueRequested = false

    @inlinable
    init(receiver: Receiver, deliversCurrentValue: Bool) {
        self.receiver = receiver
        tracksCurrentValue = deliversCurrentValue
        currentValuePending = deliversCurrentValue
    }

    @inlinable var demand: Subscribers.Demand { delivery.demand }

    /// What the deliverer does next.
    @usableFromInline
    enum DeliveryAction {
        case stop
        case deliver(BorrowedReceiver<Output, Failure>, Output)
        /// The completion to deliver, with the demand the subscriber had at its end (which
        /// its subscription's mirror keeps showing, as Combine's does).
        case complete(Receiver, Subscribers.Completion<Failure>, demandAtEnd: Subscribers.Demand)
        /// Cancelled during the delivery: the entry is to be removed and released.
        case cancelled
    }

    /// A sender offers a value. Returns the closure to deliver it with if the caller becomes
    /// the deliverer; `nil` if the value was dropped (no demand, terminated) or queued.
    @inlinable
    mutating func offer(_ value: Output) -> BorrowedReceiver<Output, Failure>? {
        // Demand first: a value that is dropped must not call the deliverer back.
        guard !isTerminated, !cancelledWhileDelivering else { return nil }
        guard delivery.demand > 0 else {
            if tracksCurrentValue { currentValuePending = true }
            return nil
        }
        if tracksCurrentValue { settleCurrentValue() }
        _ = deliveringAndNotified()
        guard case .deliver = delivery.admit(value), let receiver else { return nil }
        receiver.setDelivering(hasNews: false)
        return BorrowedReceiver(receiver)
    }

    /// Whether a deliverer is out calling the subscriber; if so, it is told (through the
    /// receiver's flag) to come back under the lock instead of leaving by the fast path.
    /// A deliverer that already left by the fast path makes the conduit idle here.
    @inlinable
    mutating func deliveringAndNotified() -> Bool {
        guard delivery.delivering else { return false }
        if receiver?.notifyDeliverer() == true { return true }
        delivery.delivererLeft()
        return false
    }

    /// The subscriber has (or is about to have) the latest value.
    @inlinable
    mutating func settleCurrentValue() {
        currentValuePending = false
        currentValueRequested = false
    }

    /// The deliverer's `receive` returned `more`. Returns the next thing to deliver, or
    /// `.stop` (idle again, or terminated meanwhile). `currentValue` supplies the current
    /// value when a `request` made meanwhile is owed it.
    @inlinable
    mutating func delivered(more: Subscribers.Demand, currentValue: () -> Output?) -> DeliveryAction {
        guard delivery.delivering, let receiver else { return .stop }
        if cancelledWhileDelivering { return .cancelled }
        switch delivery.next(adding: more) {
        case .value(let value):
            receiver.setDelivering(hasNews: delivery.hasMore)
            return .deliver(BorrowedReceiver(receiver), value)
        case .completion(let completion):
            let demand = delivery.demand
            terminate()
            return .complete(receiver, completion, demandAtEnd: demand)
        case .idle:
            if currentValueRequested, let action = deliverCurrentValue(currentValue()) { return action }
            receiver.setIdle()
            return .stop
        }
    }

    /// The subscriber requests more. For a pending current value, `currentValue` supplies it
    /// and the caller becomes the deliverer; if a deliverer is out calling the subscriber, it
    /// is told to deliver it when it comes back.
    @inlinable
    mutating func request(_ more: Subscribers.Demand, currentValue: () -> Output?) -> DeliveryAction {
        guard !isTerminated, !cancelledWhileDelivering else { return .stop }
        delivery.demand += more
        guard currentValuePending else {
            if delivery.delivering, receiver?.isDelivering == false { delivery.delivererLeft() }  // left by the fast path
            return .stop
        }
        if deliveringAndNotified() {
            currentValueRequested = true
            return .stop
        }
        return deliverCurrentValue(currentValue()) ?? .stop
    }

    /// Claims delivery of the pending current value, with demand, or `nil`. The caller owns
    /// the conduit's delivery (idle, or the deliverer that found nothing queued).
    @inlinable
    mutating func deliverCurrentValue(_ value: Output?) -> DeliveryAction? {
        guard currentValuePending, delivery.demand > 0, let receiver, let value else { return nil }
        guard case .deliver = delivery.admit(value) else { return nil }
        settleCurrentValue()
        receiver.setDelivering(hasNews: false)
        return .deliver(BorrowedReceiver(receiver), value)
    }

    /// The subscriber cancels while its deliverer is out calling it. Returns `false` if not
    /// delivering: then the caller removes the entry at once. Otherwise nothing more is
    /// delivered, and the deliverer removes the entry (and releases the subscriber) when it
    /// comes back, so the receiver it borrowed stays alive until then. If `owner` is the
    /// receiver's owner, it also calls the receiver's `deliveryEnded` then (once, whichever
    /// cancel asked).
    @inlinable
    mutating func cancelIfDelivering(reportingFor owner: ObjectIdentifier?) -> Bool {
        guard deliveringAndNotified() else { return false }
        cancelledWhileDelivering = true
        delivery.dropQueued()  // nothing more goes out; senders waiting on the queue return
        // A receiver has an owner exactly when it has a `deliveryEnded` to call.
        if let owner, receiver?.owner == owner { reportsDeliveryEnd = true }
        return true
    }

    /// Whether the thread `sender` is out delivering to this subscriber (or has claimed it and
    /// is about to): a `send` it makes now is re-entrant.
    @inlinable
    func isDelivering(on sender: UInt) -> Bool {
        delivery.delivering && delivery.deliverer == sender && receiver?.isDelivering == true
    }

    /// The subject completes. Returns the completion to deliver now, or `.stop` if the
    /// deliverer will deliver it after the queue (or the conduit already terminated).
    mutating func finish(_ completion: Subscribers.Completion<Failure>) -> DeliveryAction {
        _ = deliveringAndNotified()
        guard !isTerminated, !cancelledWhileDelivering, let receiver else { return .stop }
        guard delivery.finish(completion) else { return .stop }
        let demand = delivery.demand
        terminate()
        return .complete(receiver, completion, demandAtEnd: demand)
    }

    @inlinable
    mutating func terminate() {
        isTerminated = true
        receiver?.slot.value = SlotHint.absent  // its entry is about to go; its hint goes now
        receiver = nil
        delivery.reset()
    }
}

extension ConduitState: Sendable where Output: Sendable {}
