/// What `debounce` and `throttle` share on Sluice's own schedulers (an ``OwnScheduler``; on any other they
/// make Combine's calls, see `ForeignDebounceSubscription` and `ForeignThrottleSubscription`): one
/// subscription class, ``TimedSubscription``, which runs the operator's state machine (a ``TimedLogic``:
/// `DebounceState`, `ThrottleState`) under one lock and does what it decides after unlocking (rule 6):
/// schedule work, cancel the upstream, deliver.
///
/// Scheduling allocates nothing per value: the subscription makes two `@Sendable` closures once, when its
/// upstream's subscription arrives (through ``ScheduledEntry``), the *signal* action and the *timer* action,
/// and hands the scheduler one of them each time; when one runs, the state machine finds in its own state
/// what is due (``TimedLogic/fire(_:now:)``). `debounce` keeps one timer for a whole burst (a ``Deadline``)
/// where Combine's schedules one per value. Both actions are dropped when the subscription terminates, so a
/// run that comes after a cancel or the completion finds nothing to do.
///
/// Delivery goes through a ``SerialDelivery``, so signals never overlap (rule 3) even when the scheduler runs
/// actions at once on several threads (a concurrent `DispatchQueue`) or the upstream sends on another thread
/// than the scheduler's. As Combine's, both operators ask their upstream for `.unlimited` and deliver only
/// within the downstream's demand, dropping what it has not asked for.

/// The subscription of `debounce` and `throttle` on Sluice's own schedulers (see the top of this file).
@usableFromInline
final class TimedSubscription<Downstream: Subscriber, Context: Scheduler, Logic: TimedLogic>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Logic.Output == Downstream.Input, Logic.Failure == Downstream.Failure, Logic.Time == Context.SchedulerTimeType {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias Time = Context.SchedulerTimeType
    @usableFromInline typealias Delivery = SerialDelivery<Input, Failure>
    @usableFromInline typealias Actions = TimedActions
    /// What to schedule, and the actions to schedule it with (`nil` once terminated).
    @usableFromInline typealias Decision = (plan: TimedPlan<Time>, actions: Actions?)

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<TimedState<Downstream, Logic>>
    @usableFromInline let scheduler: Context
    @usableFromInline let tolerance: Time.Stride
    @usableFromInline let options: Context.SchedulerOptions?
    @usableFromInline let description: String
    /// `receive(_:)` and `request(_:)` as the client specialised them: the upstream and the downstream call
    /// them through existentials, whose witnesses would run generic code (and allocate) on every value.
    @usableFromInline let receiveEntry: SpecializedEntry<TimedSubscription, Input>
    @usableFromInline let requestEntry: SpecializedEntry<TimedSubscription, Subscribers.Demand>
    /// `fire(_:)` as the client specialised it, for the scheduled actions.
    @usableFromInline let fireEntry: SpecializedEntry<TimedSubscription, TimedAction>

    @inlinable
    init(
        downstream: Downstream,
        logic: Logic,
        scheduler: Context,
        tolerance: Time.Stride?,
        options: Context.SchedulerOptions?
    ) {
        receiveEntry = SpecializedEntry { $0.handle($1) }
        requestEntry = SpecializedEntry { $0.handleRequest($1) }
        fireEntry = SpecializedEntry { $0.fire($1) }
        description = logic.name
        state = Locked(TimedState(downstream: downstream, logic: logic))
        self.scheduler = scheduler
        self.tolerance = tolerance ?? scheduler.minimumTolerance
        self.options = options
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream.attach(subscription) else { return nil }
            // Made now rather than in the initialiser, so that a subscription no upstream ever
            // takes holds no cycle through them.
            let fire = fireEntry
            state.actions = TimedActions(
                signal: ScheduledEntry { fire(self, .signal) }.action,
                timer: ScheduledEntry { fire(self, .timer) }.action
            )
            return state.downstream
        }
        guard let downstream else { return subscription.cancel() }
        if Logic.throttlesEdges {
            // Combine's throttle asks before its downstream has the subscription.
            subscription.request(.unlimited)
            downstream.receive(subscription: self)
            if let waiting = state.withLock({ $0.handOn() }) { fire(waiting) }
        } else {
            downstream.receive(subscription: self)
            // Not if the downstream cancelled from inside `receive(subscription:)`.
            if state.withLock({ $0.upstream.current != nil }) { subscription.request(.unlimited) }
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        receiveEntry(self, input)
        return .none
    }

    /// A value from the upstream: to the state machine, and what it plans to the scheduler.
    @inlinable
    func handle(_ input: Input) {
        let now = scheduler.now
        // The plan comes out of the lock alone (a plain value); the actions only when it asks
        // for something, which most values of a burst do not.
        var actions: TimedActions?
        let plan = state.withLock { state -> TimedPlan<Time> in
            guard case .subscribed = state.upstream else { return TimedPlan() }
            let plan = state.logic.receive(input, now: now, demand: state.delivery.demand)
            if !plan.isEmpty { actions = state.actions }
            return plan
        }
        if let actions { carryOut((plan, actions)) }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let now = scheduler.now
        carryOut(state.withLock { state in
            guard state.upstream.end()?.upstream != nil else { return nil }
            return state.decision(state.logic.receive(completion: completion, now: now))
        })
    }

    // MARK: The scheduler

    /// Hands the scheduler what `plan` asks, after unlocking.
    @inlinable
    func carryOut(_ decision: Decision?) {
        guard let (plan, actions) = decision, let actions else { return }
        if plan.hop { scheduler.schedule(options: options, actions.signal) }
        if let date = plan.signalAt {
            scheduler.schedule(after: date, tolerance: tolerance, options: options, actions.signal)
        }
        if let date = plan.timerAt {
            scheduler.schedule(after: date, tolerance: tolerance, options: options, actions.timer)
        }
    }

    /// A scheduled action runs: delivers what the logic finds due. Taking it from the logic
    /// and admitting it to the delivery is one step under the lock, so that runs on several
    /// threads at once deliver in the logic's order.
    @inlinable
    func fire(_ action: TimedAction) {
        let now = scheduler.now
        let decision = state.withLock { state -> (Decision, Delivery.Next, Downstream)? in
            guard let downstream = state.downstream, !state.delivery.isFinishing else { return nil }
            guard state.handedOn else {
                state.runWaiting = action
                return nil
            }
            let firing = state.logic.fire(action, now: now)
            let actions = firing.plan.isEmpty ? nil : state.actions
            return ((firing.plan, actions), state.admit(firing.value, then: firing.completion), downstream)
        }
        guard let (scheduled, next, downstream) = decision else { return }
        carryOut(scheduled)
        deliver(next, to: downstream)
    }

    /// Delivers `next`, then whatever else was admitted meanwhile, one signal at a time (the
    /// deliverer's loop of ``SerialDelivery``).
    @inlinable
    func deliver(_ next: Delivery.Next, to downstream: Downstream) {
        state.deliver(next, to: downstream, delivered: { state, more -> (Void, Delivery.Next) in
            let next = state.delivery.next(adding: more)
            if case .completion = next { state.terminate() }
            return ((), next)
        }, carryOut: { (_: Void) in })
    }

    // MARK: Subscription

    /// Adds to the downstream's demand (the upstream has `.unlimited`). `request(.none)`
    /// traps in `debounce` (rule 7) and is ignored in `throttle`, as in Combine.
    @inlinable
    func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

    @inlinable
    func handleRequest(_ demand: Subscribers.Demand) {
        guard demand != .none else {
            if !Logic.throttlesEdges { Violation.zeroDemandRequested() }
            return
        }
        state.withLock { state in
            guard state.downstream != nil else { return }
            state.delivery.demand += demand
        }
    }

    /// Cancels the upstream and lets go of the downstream. Before the upstream's subscription
    /// has come, Combine's `debounce` ignores a cancel (and later takes the subscription); its
    /// `throttle` cancels that subscription when it comes.
    @inlinable
    func cancel() {
        let released = state.withLock { state -> ((any Subscription)?, Downstream?, TimedActions?)? in
            if !Logic.throttlesEdges && state.upstream.isAwaiting { return nil }
            let upstream = state.upstream.end()?.upstream
            let released = (state.downstream, state.actions)
            state.delivery.reset()
            state.logic.reset()
            state.terminate()
            return (upstream, released.0, released.1)
        }
        guard let (upstream, downstream, actions) = released else { return }
        withExtendedLifetime((downstream, actions)) {}  // released here, after unlocking
        upstream?.cancel()
    }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
