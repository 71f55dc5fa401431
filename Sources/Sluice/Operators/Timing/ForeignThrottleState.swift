/// The state of one `throttle(for:scheduler:latest:)` subscription on a scheduler Sluice
/// does not own (``ForeignThrottleSubscription``), under its lock.
///
/// At most one emission is scheduled at a time. A value that arrives while none is scheduled, and the
/// downstream has demand, takes one unit of it and is scheduled: at once if the last emission is at least
/// `interval` old (or there was none), else for `interval` after it. While one is scheduled, a newer value
/// replaces it (`latest`) or is dropped. A value that arrives without demand is dropped, as in Combine. The
/// upstream's completion rides with the scheduled emission, or is scheduled at once.
///
/// ```text
/// awaiting ──subscription──▶ subscribed ──value, demand──▶ scheduled(value) ──emit──▶ subscribed
///    │                           └──completion──▶ scheduled(completion) ──emit──▶ terminated
///    └──cancel──▶ terminated (a later subscription is cancelled)
/// ```
struct ForeignThrottleState<Downstream: Subscriber, Time> {
    typealias Delivery = SerialDelivery<Downstream.Input, Downstream.Failure>

    /// `nil` once cancelled or the completion delivered.
    var downstream: Downstream?
    var upstream = SubscriptionSlot.awaiting
    /// Only serialises: the downstream's demand is `demand`, taken when a value is scheduled.
    var delivery = Delivery()
    var demand = Subscribers.Demand.none
    var pendingValue: Downstream.Input?
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>?
    var lastEmission: Time?
    /// The upstream completed: nothing more is taken from it.
    var completed = false
    /// The downstream has its subscription: an emission that ran before (the upstream
    /// completed inside the first request, on an immediate scheduler) waits for it (rule 1).
    var handedOn = false
    var emissionDeferred = false

    init(downstream: Downstream) {
        self.downstream = downstream
        delivery.demand = .unlimited
    }

    /// Whether the upstream may still send.
    var takesSignals: Bool { upstream.isSubscribed && !completed }

    /// Whether an emission is scheduled.
    var scheduled: Bool { pendingValue != nil || pendingCompletion != nil }
}
