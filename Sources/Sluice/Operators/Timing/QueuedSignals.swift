/// What `delay` and `timeout` keep alike, under their subscription's lock: the values and the
/// completion on their way through the scheduler wait in `queue`, and each scheduled run of
/// `action` delivers the oldest (so that they keep their order on any scheduler); the
/// upstream keeps the demand, so the delivery only serialises (rule 3), and the demand the
/// downstream returns goes to the upstream. `delay`'s whole state; part of `timeout`'s.
///
/// ```text
/// awaiting ──subscription──▶ subscribed ──completion──▶ completed ──its run──▶ terminated
///    (a cancel here is ignored)  └──────────cancel────────┴──▶ terminated (queue, action dropped)
/// ```
struct QueuedSignals<Downstream: Subscriber> {
    typealias Delivery = SerialDelivery<Downstream.Input, Downstream.Failure>

    /// `nil` once cancelled or the completion delivered (or, for `timeout`, timed out).
    var downstream: Downstream?
    var upstream = SubscriptionSlot.awaiting
    var delivery = Delivery()
    var queue = FIFO<TimedSignal<Downstream.Input, Downstream.Failure>>()
    /// The action that delivers the oldest signal; made at subscription, dropped at the end.
    var action: (@Sendable () -> Void)?
    /// The upstream completed: nothing more is taken from it.
    var completed = false

    init(downstream: Downstream) {
        self.downstream = downstream
        delivery.demand = .unlimited
    }

    /// Whether the upstream may still send.
    var takesSignals: Bool { upstream.isSubscribed && !completed }

    /// Takes the upstream's subscription and makes the action; returns the downstream to hand
    /// the subscription to, or nil for a second one (to cancel).
    mutating func attach(_ subscription: any Subscription, action: @escaping @Sendable () -> Void) -> Downstream? {
        guard upstream.attach(subscription) else { return nil }
        self.action = action
        return downstream
    }

    /// Queues `signal`: the action to schedule for it, or nil if the upstream may not send.
    mutating func enqueue(_ signal: TimedSignal<Downstream.Input, Downstream.Failure>) -> (@Sendable () -> Void)? {
        guard takesSignals, let action else { return nil }
        if case .completion = signal { completed = true }
        queue.append(signal)
        return action
    }

    /// A scheduled run: admits the oldest signal to the delivery; what this caller delivers.
    mutating func runOldest() -> (Delivery.Next, Downstream)? {
        guard let downstream, let signal = queue.popFirst() else { return nil }
        switch signal {
        case .value(let value):
            guard case .deliver = delivery.admit(value) else { return nil }
            return (.value(value), downstream)
        case .completion(let completion):
            withExtendedLifetime(end()) {}  // the upstream completed: nothing to cancel
            guard delivery.finish(completion) else { return nil }
            self.downstream = nil
            return (.completion(completion), downstream)
        }
    }

    /// Ends the stream: nothing more is taken or delivered from the queue. Returns the
    /// upstream's subscription and the action, to cancel and release after unlocking.
    mutating func end() -> ((any Subscription)?, (@Sendable () -> Void)?) {
        defer {
            action = nil
            queue = FIFO()
        }
        return (upstream.end()?.upstream, action)
    }

    /// The deliverer is back and the downstream asked for `more`: the upstream to ask, and
    /// what to deliver next.
    mutating func delivered(_ more: Subscribers.Demand) -> (((any Subscription)?, Subscribers.Demand), Delivery.Next) {
        let next = delivery.next(adding: .none)
        if case .completion = next { downstream = nil }
        return ((more == .none ? nil : upstream.current, more), next)
    }
}

extension Locked {
    /// The deliverer's loop of `delay` and `timeout`: delivers `next`, then what was queued
    /// meanwhile; the demand the downstream returns goes to the upstream, after unlocking.
    func deliver<Downstream: Subscriber>(
        _ next: SerialDelivery<Downstream.Input, Downstream.Failure>.Next, to downstream: Downstream,
        signals: WritableKeyPath<State, QueuedSignals<Downstream>>
    ) {
        deliver(
            next,
            to: downstream,
            delivered: { state, more in state[keyPath: signals].delivered(more) },
            carryOut: { request in
                if let upstream = request.0 { upstream.request(request.1) }
            }
        )
    }
}

/// A signal waiting in `delay`'s or `timeout`'s queue.
enum TimedSignal<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}
