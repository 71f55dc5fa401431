/// The state of `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)` (``UntilOutputSubscription``),
/// under its lock.
///
/// The upstream's values pass through with its own demand; the *trigger*'s first value ends
/// the prefix (finishing the stream) or the dropping (letting values through). The trigger
/// can fire on another thread while a value is being delivered, so values and the completion
/// go through a ``SerialDelivery`` (with unlimited demand: the upstream keeps the demand) and
/// never overlap.
@usableFromInline
struct UntilOutputState<Downstream: Subscriber> {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream = SubscriptionSlot.awaiting
    @usableFromInline var trigger = SubscriptionSlot.awaiting
    /// Demand requested before the upstream's subscription arrived.
    @usableFromInline var pending = Subscribers.Demand.none
    @usableFromInline var triggered = false
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    /// Cancelled, or the completion decided.
    @usableFromInline var ended = false

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
        delivery.demand = .unlimited
    }

    /// The end of the stream: what to cancel, and the completion to deliver now (if no value
    /// is being delivered; else its deliverer delivers it after).
    @usableFromInline
    struct Ending {
        @usableFromInline var cancels: [any Subscription] = []
        @usableFromInline var complete: (Downstream, Subscribers.Completion<Failure>)?
        @inlinable init() {}
    }

    @inlinable
    mutating func end(with completion: Subscribers.Completion<Failure>) -> Ending {
        var ending = Ending()
        guard !ended else { return ending }
        ended = true
        if let upstream = upstream.end()?.upstream { ending.cancels.append(upstream) }
        if let trigger = trigger.end()?.upstream { ending.cancels.append(trigger) }
        if delivery.finish(completion), let downstream {
            self.downstream = nil
            ending.complete = (downstream, completion)
        }
        return ending
    }

    /// The deliverer is back: `nil` if nothing more, or the completion kept for it.
    @inlinable
    mutating func delivered() -> (Downstream, Subscribers.Completion<Failure>)? {
        guard case .completion(let completion) = delivery.next(adding: .none), let downstream else { return nil }
        self.downstream = nil
        return (downstream, completion)
    }

    @inlinable
    mutating func cancel() -> ([any Subscription], Downstream?) {
        ended = true
        delivery.reset()
        let cancels = [upstream.end()?.upstream, trigger.end()?.upstream].compactMap { $0 }
        defer { downstream = nil }
        return (cancels, downstream)
    }
}
