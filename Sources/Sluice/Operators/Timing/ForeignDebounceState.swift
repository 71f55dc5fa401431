/// The state of one `debounce(for:scheduler:options:)` subscription on a scheduler Sluice
/// does not own (``ForeignDebounceSubscription``), under its lock.
///
/// As in Combine, every value starts a timer of its own: a repeating one, `dueTime` from `now`, and the
/// previous value's timer is cancelled. When the timer of the latest value (`generation`) runs, that value
/// goes to the downstream if it has demand and is dropped otherwise, and the timer is cancelled. A timer of
/// an older value that the scheduler failed to cancel finds a newer generation and does nothing.
///
/// ```text
/// awaiting ──subscription──▶ subscribed ──value──▶ waiting(generation g, timer pending → set)
///    (a cancel here is ignored)  ▲                     │ timer g runs: deliver or drop
///                                └─────────────────────┘
/// subscribed / waiting ──upstream completion──▶ completed (value dropped; completion hops)
///                      ──cancel──────────────▶ terminated (timer cancelled, downstream dropped)
/// ```
struct ForeignDebounceState<Downstream: Subscriber> {
    typealias Delivery = SerialDelivery<Downstream.Input, Downstream.Failure>

    /// `nil` once cancelled or the completion delivered.
    var downstream: Downstream?
    var upstream = SubscriptionSlot.awaiting
    /// The downstream's demand, and its one-at-a-time delivery.
    var delivery = Delivery()
    /// The latest value, waiting for its timer.
    var waiting: Downstream.Input?
    /// Counts the values received; the latest value's timer carries the same count.
    var generation: UInt64 = 0
    /// The latest value's timer: its generation and its cancellable (`nil` while the
    /// scheduler call that makes it has not returned).
    var timer: (generation: UInt64, token: (any Cancellable)?)?
    /// The upstream completed: nothing more is taken from it.
    var completed = false

    init(downstream: Downstream) { self.downstream = downstream }

    /// Whether the upstream may still send.
    var takesSignals: Bool { upstream.isSubscribed && !completed }

    /// The cancellable of the timer that is taken away, if one was set.
    mutating func takeTimer() -> (any Cancellable)? {
        defer { timer = nil }
        return timer?.token
    }
}
