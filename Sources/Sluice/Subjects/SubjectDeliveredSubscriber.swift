/// A subscription that can say, when cancelled, whether it is calling its subscriber at that moment, and
/// then tell it once that call has returned (a subject's lock records whether its deliverer is out). So a
/// ``Subscribers/Sink`` on a subject skips its termination gate: its cancel asks here first and, if the
/// deliverer is out, frees nothing until the subject calls its `deliveryEnded()`. Only the subscriber whose
/// entries the subject took is told; any other `owner` gets `false` (its gated deliveries keep it safe).
@usableFromInline
protocol DeferredCancelSubscription: AnyObject {
    /// Cancels; `true` if `owner` is the subscriber being called at this moment: the subject then calls its
    /// `deliveryEnded()` exactly once, after that call returns (on the deliverer's thread, no lock held).
    func cancelReportingDelivery(owner: AnyObject) -> Bool
}

/// Cancels `subscription`, asking whether it is delivering to `owner` if it can say; `false` for any other.
@usableFromInline
func cancelReportingDelivery(_ subscription: any Subscription, owner: AnyObject) -> Bool {
    guard let deferred = subscription as? any DeferredCancelSubscription else {
        subscription.cancel()
        return false
    }
    return deferred.cancelReportingDelivery(owner: owner)
}

/// For a completion not from the subject: cancels a ``DeferredCancelSubscription`` and answers whether it is
/// delivering to `owner`; leaves any other alone (a completion cancels nothing), answering `false`.
@usableFromInline
func stopSubjectReportingDelivery(_ subscription: (any Subscription)?, owner: AnyObject) -> Bool {
    (subscription as? any DeferredCancelSubscription)?.cancelReportingDelivery(owner: owner) ?? false
}

/// A subscriber a Sluice subject may call through entries that skip its own termination gate, because its
/// cancel asks its ``DeferredCancelSubscription`` before freeing anything (a sink, a multicast's connection,
/// subscribers that pass every signal on to a sink). The subject reaches it only through the entries.
@usableFromInline
protocol SubjectDeliveredSubscriber: Subscriber {
    /// What a subject calls in place of `receive(_:)` and `receive(completion:)`; `nil`: call those. Once
    /// handed out, a completion or cancel not from the subject may overlap an ungated call.
    func makeSubjectEntries() -> SubjectEntries<Input, Failure>?
}

@usableFromInline
struct SubjectEntries<Input, Failure: Error> {
    /// Ungated; only a subject's deliverer calls it.
    @usableFromInline let receive: (Input) -> Subscribers.Demand
    /// After every value, with none in progress.
    @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    /// The call that was out at the subscriber's cancel has returned.
    @usableFromInline let deliveryEnded: () -> Void
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
