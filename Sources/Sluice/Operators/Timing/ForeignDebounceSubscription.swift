/// The subscription of `debounce(for:scheduler:options:)` on a scheduler Sluice does not own
/// (see ``ForeignDebounceState``; on its own schedulers debounce runs on ``TimedSubscription``,
/// which keeps one timer for a whole burst).
///
/// Its calls to the scheduler are Combine's, which a scheduler written for Combine may count: for each value
/// it reads `now`, then `minimumTolerance`, and schedules a repeating timer with
/// `schedule(after:interval:tolerance:options:)`; the completion hops with `schedule(options: nil)`. The
/// scheduler is called after unlocking (rule 6); deliveries go through a ``SerialDelivery`` (rule 3). It asks
/// its upstream for `.unlimited` once the downstream has its subscription.
@usableFromInline
final class ForeignDebounceSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    typealias Delivery = SerialDelivery<Input, Failure>

    @usableFromInline let combineIdentifier = CombineIdentifier()
    let state: Locked<ForeignDebounceState<Downstream>>
    let dueTime: Context.SchedulerTimeType.Stride
    let scheduler: Context
    let options: Context.SchedulerOptions?

    @usableFromInline
    init(
        downstream: Downstream,
        dueTime: Context.SchedulerTimeType.Stride,
        scheduler: Context,
        options: Context.SchedulerOptions?
    ) {
        state = Locked(ForeignDebounceState(downstream: downstream))
        self.dueTime = dueTime
        self.scheduler = scheduler
        self.options = options
    }

    // MARK: The upstream

    @usableFromInline func receive(subscription: any Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream.attach(subscription) else { return nil }
            return state.downstream
        }
        guard let downstream else { return subscription.cancel() }
        downstream.receive(subscription: self)
        // Not if the downstream cancelled from inside `receive(subscription:)`.
        if state.withLock({ $0.upstream.isSubscribed }) { subscription.request(.unlimited) }
    }

    @usableFromInline func receive(_ input: Input) -> Subscribers.Demand {
        let started = state.withLock { state -> ((any Cancellable)?, UInt64)? in
            guard state.takesSignals else { return nil }
            state.generation &+= 1
            state.waiting = input
            let previous = state.takeTimer()
            state.timer = (state.generation, nil)
            return (previous, state.generation)
        }
        guard let (previous, generation) = started else { return .none }
        let due = scheduler.now.advanced(by: dueTime)
        let tolerance = scheduler.minimumTolerance
        let timer = scheduler.schedule(
            after: due,
            interval: dueTime,
            tolerance: tolerance,
            options: options,
            ScheduledEntry { self.due(generation) }.action
        )
        let stale = state.withLock { state -> (any Cancellable)? in
            // Ran already (an immediate scheduler), replaced, or the stream ended: not kept.
            guard state.takesSignals, let current = state.timer, current.generation == generation else { return timer }
            state.timer = (generation, timer)
            return nil
        }
        stale?.cancel()
        previous?.cancel()
        return .none
    }

    @usableFromInline func receive(completion: Subscribers.Completion<Failure>) {
        let timer = state.withLock { state -> (any Cancellable)?? in
            guard state.takesSignals else { return nil }
            state.completed = true
            state.waiting = nil
            _ = state.upstream.end()
            return .some(state.takeTimer())
        }
        guard let timer else { return }
        timer?.cancel()
        // As Combine's: the completion hops with no options.
        scheduler.schedule(options: nil, ScheduledEntry { self.deliver(completion) }.action)
    }

    // MARK: The scheduler

    /// A value's timer ran: if it is the latest value's, the value goes to the downstream
    /// (dropped without demand) and the timer is cancelled.
    func due(_ generation: UInt64) {
        let taken = state.withLock { state -> ((any Cancellable)?, (Delivery.Next, Downstream)?)? in
            guard state.takesSignals, let downstream = state.downstream, let timer = state.timer,
                timer.generation == generation,
                let value = state.waiting.take()
            else { return nil }
            state.timer = nil
            guard case .deliver = state.delivery.admit(value) else { return (timer.token, nil) }
            return (timer.token, (.value(value), downstream))
        }
        guard let (token, delivery) = taken else { return }
        token?.cancel()
        if let (next, downstream) = delivery { deliver(next, to: downstream) }
    }

    /// The completion's hop ran.
    func deliver(_ completion: Subscribers.Completion<Failure>) {
        let next = state.withLock { state -> (Delivery.Next, Downstream)? in
            guard let downstream = state.downstream, state.delivery.finish(completion) else { return nil }
            state.downstream = nil
            return (.completion(completion), downstream)
        }
        if let (next, downstream) = next { deliver(next, to: downstream) }
    }

    /// The deliverer's loop: the demand the downstream returns adds to its demand.
    func deliver(_ next: Delivery.Next, to downstream: Downstream) {
        state.deliver(next, to: downstream, delivered: { state, more -> (Void, Delivery.Next) in
            let next = state.delivery.next(adding: more)
            if case .completion = next { state.downstream = nil }
            return ((), next)
        }, carryOut: { (_: Void) in })
    }

    // MARK: Subscription

    /// Adds to the downstream's demand; the upstream has `.unlimited` already. Traps on `.none` (rule 7).
    @usableFromInline func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        state.withLock { state in
            guard state.downstream != nil, !state.upstream.isAwaiting else { return }
            state.delivery.demand += demand
        }
    }

    /// Cancels the upstream (unless it completed) and the timer, and lets go of the
    /// downstream. Before the upstream's subscription has come it does nothing, as in Combine.
    @usableFromInline func cancel() {
        let ended = state.withLock { state -> ((any Subscription)?, (any Cancellable)?, Downstream?)? in
            guard !state.upstream.isAwaiting, state.downstream != nil else { return nil }
            state.waiting = nil
            state.delivery.reset()
            defer { state.downstream = nil }
            return (state.upstream.end()?.upstream, state.takeTimer(), state.downstream)
        }
        guard let (upstream, timer, downstream) = ended else { return }
        timer?.cancel()
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        upstream?.cancel()
    }

    @usableFromInline var description: String { "Debounce" }
    /// Combine's children: the downstream, its outstanding demand, and the value waiting for its timer.
    @usableFromInline var customMirror: Mirror {
        let (downstream, demand, waiting) = state.withLock { ($0.downstream, $0.delivery.demand, $0.waiting) }
        return Mirror(
            self,
            children: ["downstream": downstream as Any, "downstreamDemand": demand, "currentValue": waiting as Any]
        )
    }
    @usableFromInline var playgroundDescription: Any { description }
}
