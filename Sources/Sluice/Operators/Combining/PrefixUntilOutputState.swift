/// The state of `prefix(untilOutputFrom:)` (``PrefixUntilOutputSubscription``), under its lock.
///
/// The other publisher (the *trigger*) is subscribed first; the downstream gets this
/// subscription when the upstream's comes, as in Combine. Then:
/// ```text
/// upstream: awaiting ──subscription──▶ subscribed ──completion, cancel, trigger──▶ terminated
///               └───────────completion, cancel, trigger fires──────────────────────▲
/// trigger:  awaiting ──subscription──▶ subscribed ──its completion, upstream's, cancel,
///               └──────────────────────────────────── trigger fires──▶ terminated
/// ```
/// - the trigger's value (while it is subscribed) cancels the upstream and finishes the
///   stream, even before the upstream's subscription came (Combine finishes a downstream that
///   never got one); the trigger is let go of, not cancelled;
/// - the trigger's completion only lets go of it;
/// - the upstream's completion cancels the trigger and passes on if the upstream was subscribed.
///
/// Values and the completion reach the downstream one at a time (``UntilOutputDeliveryState``).
@usableFromInline
struct PrefixUntilOutputState<Downstream: Subscriber>: UntilOutputDeliveryState, FanInEnd {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream = SubscriptionSlot.awaiting
    @usableFromInline var trigger = SubscriptionSlot.awaiting
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
        delivery.demand = .unlimited
    }

    /// The end of the stream: what to cancel, and the completion to deliver now (if no value
    /// is being delivered; else its deliverer delivers it after).
    @usableFromInline
    struct Ending {
        @usableFromInline var cancel: (any Subscription)?
        @usableFromInline var complete: (Downstream, Subscribers.Completion<Failure>)?
        @inlinable init() {}
    }

    /// Ends the stream with `completion` (delivered only if `delivering`), after cancelling `cancel`.
    @inlinable
    mutating func end(
        with completion: Subscribers.Completion<Failure>, delivering: Bool, cancel: (any Subscription)?
    ) -> Ending {
        var ending = Ending()
        ending.cancel = cancel
        if delivering, delivery.finish(completion), let downstream {
            self.downstream = nil
            ending.complete = (downstream, completion)
        }
        if !delivering { downstream = nil }
        return ending
    }

    @inlinable
    mutating func endUpstreams() -> [any Subscription] {
        [upstream.end()?.upstream, trigger.end()?.upstream].compactMap { $0 }
    }
}
