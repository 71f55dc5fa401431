/// The state of one subscriber of a subject (its *conduit*); ``SubjectStorage`` runs every transition under
/// the subject's one lock and calls the subscriber after unlocking.
///
/// Signals to one subscriber never overlap (rule 3) though many threads `send` and no lock is held while
/// calling it (rule 6): ``SerialDelivery`` elects one deliverer, queues what arrives meanwhile (re-entrant
/// `send`s too) and bounds the queue (senders wait in ``SubjectStorage/holdSender()``). The conduit adds the
/// fast path, the current value and cancel while delivering.
///
/// Fast path: a deliverer whose `receive` added no demand leaves `delivering` without the lock, by one
/// compare-exchange on the receiver's flag (``SubjectReceiver/tryLeave()``); anything that happens to a
/// `delivering` conduit under the lock (queue, completion, cancel) first sets that flag, so the deliverer
/// comes back under the lock instead (``deliveringAndNotified()``); `delivering` with it cleared is idle.
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
/// A value offered without demand is dropped (a subject's contract). A `CurrentValueSubject` then owes the
/// subscriber its current value, as Combine's does: its next `request` delivers the value of that moment (at
/// once, or when the deliverer out returns); a value delivered meanwhile settles the debt.
@usableFromInline
struct ConduitState<Output, Failure: Error> {
    @usableFromInline typealias Receiver = SubjectReceiver<Output, Failure>

    /// Its `delivering` stays set when the deliverer leaves by the fast path (the receiver's flag then reads
    /// 0); ``deliveringAndNotified()`` clears it.
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    @usableFromInline private(set) var isTerminated = false
    /// `nil` once terminated.
    @usableFromInline var receiver: Receiver?
    /// The deliverer removes the entry when it comes back.
    @usableFromInline var cancelledWhileDelivering = false
    /// The deliverer, back, calls the receiver's `deliveryEnded` (``DeferredCancelSubscription``).
    @usableFromInline var reportsDeliveryEnd = false
    /// `CurrentValueSubject`: a value dropped for want of demand makes the current value pending again.
    @usableFromInline let tracksCurrentValue: Bool
    /// The subscriber lacks the current value (none yet, or dropped); its next `request` delivers it.
    @usableFromInline var currentValuePending: Bool
    /// A `request` found it pending while a deliverer was out: delivered on its return if nothing is queued.
    @usableFromInline var currentValueRequested = false

    @inlinable
    init(receiver: Receiver, deliversCurrentValue: Bool) {
        self.receiver = receiver
        tracksCurrentValue = deliversCurrentValue
        currentValuePending = deliversCurrentValue
    }

    @inlinable var demand: Subscribers.Demand { delivery.demand }

    @usableFromInline
    enum DeliveryAction {
        case stop
        case deliver(BorrowedReceiver<Output, Failure>, Output)
        /// With the demand at the end, which the subscription's mirror keeps showing, as Combine's does.
        case complete(Receiver, Subscribers.Completion<Failure>, demandAtEnd: Subscribers.Demand)
        /// Cancelled during the delivery: remove and release the entry.
        case cancelled
    }

    /// The receiver to deliver `value` to if the caller becomes the deliverer; `nil` if dropped or queued.
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

    /// Whether a deliverer is out; if so, its flag tells it to come back under the lock instead of leaving by
    /// the fast path. One that already left by the fast path makes the conduit idle here.
    @inlinable
    mutating func deliveringAndNotified() -> Bool {
        guard delivery.delivering else { return false }
        if receiver?.notifyDeliverer() == true { return true }
        delivery.delivererLeft()
        return false
    }

    @inlinable
    mutating func settleCurrentValue() {
        currentValuePending = false
        currentValueRequested = false
    }

    /// The deliverer's `receive` returned `more`: the next thing to deliver, or `.stop`. `currentValue`
    /// supplies the current value when a `request` made meanwhile is owed it.
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

    /// For a pending current value, `currentValue` supplies it and the caller becomes the deliverer, or the
    /// deliverer out is told to deliver it when it comes back.
    @inlinable
    mutating func request(_ more: Subscribers.Demand, currentValue: () -> Output?) -> DeliveryAction {
        guard !isTerminated, !cancelledWhileDelivering else { return .stop }
        delivery.demand += more
        guard currentValuePending else {
            if delivery.delivering, receiver?.isDelivering == false {
                delivery.delivererLeft()  // left by the fast path
            }
            return .stop
        }
        if deliveringAndNotified() {
            currentValueRequested = true
            return .stop
        }
        return deliverCurrentValue(currentValue()) ?? .stop
    }

    /// Claims delivery of the pending current value; the caller owns the conduit's delivery (idle, or the
    /// deliverer that found nothing queued).
    @inlinable
    mutating func deliverCurrentValue(_ value: Output?) -> DeliveryAction? {
        guard currentValuePending, delivery.demand > 0, let receiver, let value else { return nil }
        guard case .deliver = delivery.admit(value) else { return nil }
        settleCurrentValue()
        receiver.setDelivering(hasNews: false)
        return .deliver(BorrowedReceiver(receiver), value)
    }

    /// `false` if not delivering: the caller removes the entry at once. Otherwise nothing more is delivered
    /// and the deliverer removes the entry on return, so the receiver it borrowed stays alive until then; if
    /// `owner` is the receiver's owner, it then calls `deliveryEnded` (once, whichever cancel asked).
    @inlinable
    mutating func cancelIfDelivering(reportingFor owner: ObjectIdentifier?) -> Bool {
        guard deliveringAndNotified() else { return false }
        cancelledWhileDelivering = true
        delivery.dropQueued()  // nothing more goes out; senders waiting on the queue return
        // A receiver has an owner exactly when it has a `deliveryEnded` to call.
        if let owner, receiver?.owner == owner { reportsDeliveryEnd = true }
        return true
    }

    /// Whether `sender` is delivering to this subscriber (or about to): its `send` now is re-entrant.
    @inlinable
    func isDelivering(on sender: UInt) -> Bool {
        delivery.delivering && delivery.deliverer == sender && receiver?.isDelivering == true
    }

    /// The completion to deliver now; `.stop` if the deliverer will after the queue, or if terminated.
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
