/// One signal for a subscriber's user code: what ``ActorDelivery`` queues.
@usableFromInline
enum SubscriberEvent<Input, Failure: Error> {
    /// Queued only for `AnySubscriber`'s closures (a sink takes its subscription where it is).
    case subscription(any Subscription)
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
}

/// A subscriber whose user code was written in an actor's isolation and so must run there (a `sink` or
/// `assign` made in actor-isolated code). ``ActorDelivery`` calls ``perform(_:)`` only on that actor.
@usableFromInline
protocol ActorBoundSubscriber<Input, Failure>: AnyObject, SendableMetatype {
    associatedtype Input
    associatedtype Failure: Error

    /// Runs the user code for `event`. Called only isolated to the subscriber's actor.
    func perform(_ event: SubscriberEvent<Input, Failure>)
}
