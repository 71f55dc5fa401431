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
/// Only the subscriber whose entries the subject took (see ``SubjectDeliveredSubscriber``) is
/// told: a cancel that names any other `owner` (a subscriber handed someone else's
/// subscription) is answered `false`, and its own gated deliveries keep it safe.
@usableFromInline
protocol DeferredCancelSubscription: AnyObject {
    /// Cancels, as ``Subscription/cancel()``. Returns `true` if the subscriber is being called
    /// at this moment and `owner` is that subscriber: the subject then calls its
    /// `deliveryEnded()` exactly once, after that call returns (on the deliverer's thread, with
    /// no lock held). Returns `false` otherwise, and then it never will.
    func cancelReportingDelivery(owner: AnyObject) -> Bool
}

/// Cancels `subscription`, asking it whether it is delivering to `owner` if it can say
/// (``DeferredCancelSubscription``); `false` for any other.
@usableFromInline
func cancelReportingDelivery(_ subscription: any Subscription, owner: AnyObject) -> Bool {
    guard let deferred = subscription as? any DeferredCancelSubscription else {
        subscription.cancel()
        return false
    }
    return deferred.cancelReportingDelivery(owner: owner)
}

/// For a completion that did not come from the subject (see ``Subscribers/Sink``): if
/// `subscription` is a ``DeferredCancelSubscription``, cancels it and returns whether it is
/// delivering to `owner`; any other subscription is left alone (a completion cancels nothing),
/// and the answer is `false`.
@usableFromInline
func stopSubjectReportingDelivery(_ subscription: (any Subscription)?, owner: AnyObject) -> Bool {
    (subscription as? any DeferredCancelSubscription)?.cancelReportingDelivery(owner: owner) ?? false
}

/// A subscriber that a Sluice subject may call through entries that skip the subscriber's own
/// termination gate, because the subscription it holds is a ``DeferredCancelSubscription`` and
/// its cancel asks that subscription before freeing anything: a ``Subscribers/Sink``, a
/// multicast's connection, and the internal subscribers that pass every signal straight on to
/// a sink (a multicast's, an autoconnect's). The subject reaches them only through the entries.
@usableFromInline
protocol SubjectDeliveredSubscriber: Subscriber {
    /// Makes what a subject calls in place of `receive(_:)` and `receive(completion:)`; `nil` if
    /// this subscriber must be called through them after all. A subscriber that hands out its
    /// entries from then on treats a completion or cancel that does not come from its subject as
    /// possibly concurrent with an ungated call.
    func makeSubjectEntries() -> SubjectEntries<Input, Failure>?
}

/// The entries of a ``SubjectDeliveredSubscriber``.
@usableFromInline
struct SubjectEntries<Input, Failure: Error> {
    /// Delivers a value without the subscriber's gate; only a subject's deliverer calls it.
    @usableFromInline let receive: (Input) -> Subscribers.Demand
    /// Delivers the subject's completion, after every value and with none in progress.
    @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    /// The call that was out at the subscriber's cancel has returned.
    @usableFromInline let deliveryEnded: () -> Void
    /// The subscriber whose cancel may ask to be told (see ``DeferredCancelSubscription``).
    @usableFromInline let owner: ObjectIdentifier

    @inlinable
    init(
        owner: AnyObject, receive: @escaping (Input) -> Subscribers.Demand,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        deliveryEnded: @escaping () -> Void
    ) {
        self.owner = ObjectIdentifier(owner)
        self.receive = receive
        self.receiveCompletion = receiveCompletion
        self.deliveryEnded = deliveryEnded
    }
}
