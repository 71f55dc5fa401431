/// The state of a `receive(on:)` subscription, under its lock: each value and the completion
/// waits in ``ScheduledTurns`` for the action scheduled for it.
@usableFromInline
struct ReceiveOnState<Downstream: Subscriber> {
    @usableFromInline
    enum Signal {
        /// Only for an actor-backed scheduler (a hop to an actor): there the subscription
        /// reaches the downstream on the actor too.
        case subscription
        case value(Downstream.Input)
        case completion(Subscribers.Completion<Downstream.Failure>)
    }

    /// The downstream, until the stream ends (cancel, or its completion delivered).
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream = SubscriptionSlot.awaiting
    /// The upstream's completion is queued: it sends nothing more, but the demand of the values
    /// queued before it still goes to its subscription, as in Combine.
    @usableFromInline var upstreamCompleted = false
    @usableFromInline var signals: ScheduledTurns<Signal>
    /// The action handed to the scheduler for every signal; dropped when the stream ends.
    @usableFromInline var action: (@Sendable () -> Void)?

    @inlinable
    init(downstream: Downstream, coalesces: Bool) {
        self.downstream = downstream
        signals = ScheduledTurns(coalesces: coalesces)
    }

    /// Queues `signal` if the stream is live and subscribed; returns the action to schedule.
    @inlinable
    mutating func enqueue(_ signal: Signal) -> (@Sendable () -> Void)? {
        guard downstream != nil, upstream.isSubscribed, !upstreamCompleted else { return nil }
        return signals.append(signal) ? action : nil
    }

    /// A scheduled action ran: the signal to deliver now, with the downstream to deliver it
    /// to; nil when there is none or another thread has it.
    @inlinable
    mutating func actionRan() -> (Signal, Downstream)? {
        guard let signal = signals.actionRan() else { return nil }
        return delivering(signal)
    }

    /// A delivery ended: the next signal due, if any, or the action to schedule again.
    @inlinable
    mutating func delivered() -> Turn {
        switch signals.finished() {
        case .run(let signal): delivering(signal).map { .deliver($0.0, $0.1) } ?? .done
        case .done: .done
        case .reschedule: action.map { .reschedule($0) } ?? .done
        }
    }

    /// What follows a delivery.
    @usableFromInline
    enum Turn {
        case deliver(Signal, Downstream)
        case reschedule(@Sendable () -> Void)
        case done
    }

    @inlinable
    mutating func delivering(_ signal: Signal) -> (Signal, Downstream)? {
        guard let downstream else { return nil }
        if case .completion = signal { end() }  // the upstream completed: nothing to cancel
        return (signal, downstream)
    }

    /// What to do with a subscription from the upstream.
    @usableFromInline
    enum Subscribed {
        /// Give it to the downstream now, then deliver the turns left meanwhile.
        case deliverNow(Downstream)
        /// Schedule the action: it goes through the queue (an actor-backed scheduler).
        case schedule(@Sendable () -> Void)
        /// A second subscription: cancel it.
        case cancel
        /// The downstream cancelled first: drop it, as Combine does.
        case ignore
    }

    /// The upstream's subscription arrived; `queued` for an actor-backed scheduler.
    @inlinable
    mutating func subscribed(_ subscription: any Subscription, queued: Bool) -> Subscribed {
        guard let downstream else { return .ignore }
        guard upstream.attach(subscription) else { return .cancel }
        guard queued else {
            signals.begin()
            return .deliverNow(downstream)
        }
        guard signals.append(.subscription), let action else { return .ignore }
        return .schedule(action)
    }

    /// The upstream finished or failed: queues the completion (once) and returns the action to schedule.
    @inlinable
    mutating func completed(_ completion: Subscribers.Completion<Downstream.Failure>) -> (@Sendable () -> Void)? {
        guard let action = enqueue(.completion(completion)) else { return nil }
        upstreamCompleted = true
        return action
    }

    /// Ends the stream: nothing more is delivered, the downstream and the action are let go.
    /// Returns the upstream subscription to cancel, if it was still live.
    @inlinable
    @discardableResult
    mutating func end() -> (any Subscription)? {
        downstream = nil
        signals.removeAll()
        action = nil
        return upstream.end()?.upstream
    }
}
