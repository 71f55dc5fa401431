/// A subscription that can say, when cancelled, whether it is calling its subscriber at that
/// moment, and then tell the subscriber once that call has returned.
///
/// Sluice's subjects know this exactly: one deliverer at a time calls a subscriber, and the
/// subject's lock records whether it is out. A ``Subscribers/Sink`` frees its closures on
/// cancel; subscribed straight to a subject (or through a multicast of one), it lets the
/// subject's deliverer call it without entering its termination gate, because its cancel asks
/// here first: if the deliverer is out, the sink frees nothing, and the subject calls the sink's
/// `deliveryEnded()` when the deliverer comes back. A `send` then costs such a sink no atomic
/// read-modify-write of its own (the "PassthroughSubject.send → 4 sinks" and
/// "share() → 4 sinks" rows).
///
/// Only a subscription whose subject was told, at subscription, how to reach the subscriber's
/// `deliveryEnded()` answers `true` (see ``SubjectReceiver``); any other answers `false`, and
/// its subscriber's deliveries go through the gate as usual.
@usableFromInline
protocol DeferredCancelSubscription: AnyObject {
    /// Cancels, as ``Subscription/cancel()``. Returns `true` if the subscriber is being called
    /// at this moment and the subject will call its `deliveryEnded()` exactly once, after that
    /// call returns (on the deliverer's thread, with no lock held); `false` otherwise, and then
    /// it never will.
    func cancelReportingDelivery() -> Bool
}

/// Cancels `subscription`, asking it whether it is delivering if it can say
/// (``DeferredCancelSubscription``); `false` for any other.
@usableFromInline
func cancelReportingDelivery(_ subscription: any Subscription) -> Bool {
    guard let deferred = subscription as? any DeferredCancelSubscription else {
        subscription.cancel()
        return false
    }
    return deferred.cancelReportingDelivery()
}

/// A subscriber that a Sluice subject may call through entries that skip the subscriber's own
/// termination gate, because the subscription it holds is a ``DeferredCancelSubscription`` and
/// its cancel asks that subscription before freeing anything: a ``Subscribers/Sink``, and the
/// internal subscribers that pass every signal straight on to one (a multicast's, an
/// autoconnect's). The subject reaches them only through ``subjectEntries``.
@usableFromInline
protocol SubjectDeliveredSubscriber: Subscriber {
    /// What a subject calls in place of `receive(_:)`, and the subscriber's `deliveryEnded()`;
    /// `nil` if this subscriber must be called through `receive(_:)` after all.
    var subjectEntries: SubjectEntries<Input>? { get }
}

/// The entries of a ``SubjectDeliveredSubscriber``.
@usableFromInline
struct SubjectEntries<Input> {
    /// Delivers a value without the subscriber's gate; only a subject's deliverer calls it.
    @usableFromInline let receive: (Input) -> Subscribers.Demand
    /// The call that was out at the subscriber's cancel has returned.
    @usableFromInline let deliveryEnded: () -> Void

    @inlinable
    init(receive: @escaping (Input) -> Subscribers.Demand, deliveryEnded: @escaping () -> Void) {
        self.receive = receive
        self.deliveryEnded = deliveryEnded
    }
}
