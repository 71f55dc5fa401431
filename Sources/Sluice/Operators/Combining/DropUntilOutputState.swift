/// The state of `drop(untilOutputFrom:)` (``DropUntilOutputSubscription``), under its lock.
///
/// Combine's operator is loose about what comes after an ending, and this keeps its observable behaviour:
/// ```text
/// upstream value ── not triggered, or upstream ended/cancelled ──▶ dropped, uses up one of
///                │                                                 the demand requested
///                │                                                 (none left: rule 2 trap)
///                └─ triggered ──▶ delivered, the downstream's demand returned upstream
/// other's value ──▶ triggered; the other subscription is let go of (not cancelled)
/// other's completion ── triggered ──▶ ignored
///                    └─ otherwise ──▶ upstream cancelled (a later upstream subscription
///                                     is still taken), completion delivered
/// upstream completion ── first one, not cancelled ──▶ delivered (the other is kept)
/// cancel ──▶ both subscriptions cancelled
/// ```
/// The downstream is let go of at its completion and at cancel (rule 4), so nothing reaches it after either
/// (Combine keeps it: a second completion, or a value that a broken upstream sends after one, reaches it
/// there). Values and completions reach the downstream one at a time (``UntilOutputDeliveryState``).
@usableFromInline
struct DropUntilOutputState<Downstream: Subscriber>: UntilOutputDeliveryState {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Let go of at the completion it gets and at cancel (rule 4; Combine keeps it, and
    /// delivers what a broken publisher sends after).
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream: (any Subscription)?
    @usableFromInline var other: (any Subscription)?
    /// Requested so far, minus the values dropped.
    @usableFromInline var pending = Subscribers.Demand.none
    @usableFromInline var triggered = false
    /// Cancelled, or the upstream completed.
    @usableFromInline var cancelled = false
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
        delivery.demand = .unlimited
    }

    /// What an upstream value does.
    @usableFromInline
    enum ValueAction {
        case drop
        /// No demand left for a value to drop: the upstream broke rule 2 (Combine traps).
        case trap
        case deliver(Downstream)
        /// Queued for the deliverer, or nobody to deliver to.
        case none
    }

    @inlinable
    mutating func receive(_ value: Output) -> ValueAction {
        if !triggered || cancelled {
            guard pending > .none else { return .trap }
            pending -= 1
            return .drop
        }
        guard case .deliver = delivery.admit(value), let downstream else { return .none }
        return .deliver(downstream)
    }

    /// The stream ends with `completion`: the downstream to deliver it to now, if nobody is
    /// delivering (else the deliverer delivers it after).
    @inlinable
    mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Downstream? {
        guard let downstream, delivery.finish(completion) else { return nil }
        self.downstream = nil
        return downstream
    }
}
