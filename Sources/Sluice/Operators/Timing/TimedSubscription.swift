/// What the scheduled operators (`delay`, `debounce`, `throttle`, `timeout`) share: one
/// subscription class, ``TimedSubscription``, which runs an operator's state machine (a
/// ``TimedLogic``: `DelayState`, `DebounceState`, `ThrottleState`, `TimeoutState`) under one
/// lock and does what it decides after unlocking (rule 6): schedule work, cancel the upstream,
/// deliver.
///
/// Scheduling allocates nothing per value: the subscription makes two `@Sendable` closures
/// once, when its upstream's subscription arrives (through ``ScheduledEntry``), the *signal*
/// action and the *timer* action, and hands the scheduler one of them each time; when one
/// runs, the state machine finds in its own state what is due (``TimedLogic/fire(_:now:)``).
/// Both are dropped when the subscription terminates, so a run that comes after a cancel or
/// the completion finds nothing to do.
///
/// Delivery goes through a ``SerialDelivery``, so signals never overlap (rule 3) even when the
/// scheduler runs actions at once on several threads (a concurrent `DispatchQueue`) or the
/// upstream sends on another thread than the scheduler's. Demand follows Combine: `delay` and
/// `timeout` pass it to the upstream (the demand the downstream returns from `receive(_:)`
/// goes there too); `debounce` and `throttle` ask their upstream for `.unlimited` and deliver
/// only within the downstream's demand, dropping what it has not asked for.

/// The subscription of `delay`, `debounce`, `throttle` and `timeout` (see the top of this file).
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
    /// `receive(_:)` and `request(_:)` as the client specialised them: the upstream and the
    /// downstream call them through existentials, whose witnesses would run generic code (and
    /// allocate) on every value.
    @usableFromInline let receiveEntry: SpecializedEntry<TimedSubscription, Input>
    @usableFromInline let requestEntry: SpecializedEntry<TimedSubscription, Subscribers.Demand>
    /// `fire(_:)` as the client specialised it, for the scheduled actions.
    @usableFromInline let fireEntry: SpecializedEntry<TimedSubscription, TimedAction>

    @inlinable
    init(downstream: Downstream, logic: Logic, scheduler: Context, tolerance: Time.Stride?, options: Context.SchedulerOptions?) {
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
                signal: ScheduledEntry { fire(self, .signal) }.action, timer: ScheduledEntry { fire(self, .timer) }.action)
            return state.downstream
        }
        guard let downstream else { return subscription.cancel() }
        // The downstream first: a timer that fires at once (an immediate scheduler) must not
        // reach it before its subscription.
        downstream.receive(subscription: self)
        let now = scheduler.now
        let decision = state.withLock { state in
            state.upstream.current == nil ? nil : (state.logic.subscribed(now: now), state.actions)
        }
        carryOut(decision)
        // Not if the downstream cancelled from inside `receive(subscription:)`.
        if Logic.dropsValues && decision != nil { subscription.request(.unlimited) }
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
        if let date = plan.signalAt { scheduler.schedule(after: date, tolerance: tolerance, options: options, actions.signal) }
        if let date = plan.timerAt { scheduler.schedule(after: date, tolerance: tolerance, options: options, actions.timer) }
    }

    /// A scheduled action runs: delivers what the logic finds due. Taking it from the logic
    /// and admitting it to the delivery is one step under the lock, so that runs on several
    /// threads at once deliver in the logic's order.
    @inlinable
    func fire(_ action: TimedAction) {
        let now = scheduler.now
        let decision = state.withLock { state -> Firing? in
            guard let downstream = state.downstream, !state.delivery.isFinishing else { return nil }
            let firing = state.logic.fire(action, now: now)
            guard firing.timedOut else {
                return Firing(
                    plan: firing.plan, actions: firing.plan.isEmpty ? nil : state.actions,
                    next: state.admit(firing.value, then: firing.completion), downstream: downstream)
            }
            // A timeout ends the upstream here, so that nothing more is taken from it; its
            // completion is made after unlocking (`customError` is user code).
            return Firing(
                plan: firing.plan, actions: state.actions, downstream: downstream,
                timedOut: (state.upstream.end()?.upstream, firing.customError))
        }
        guard let decision else { return }
        carryOut((decision.plan, decision.actions))
        if let (upstream, customError) = decision.timedOut {
            upstream?.cancel()
            let completion: Subscribers.Completion<Failure> = customError.map { .failure($0()) } ?? .finished
            guard let (next, downstream) = state.withLock({ state in state.downstream.map { (state.admit(nil, then: completion), $0) } }) else {
                return
            }
            deliver(next, to: downstream)
        } else {
            deliver(decision.next, to: decision.downstream)
        }
    }

    /// What a run found, to act on after unlocking.
    @usableFromInline
    struct Firing {
        @usableFromInline var plan: TimedPlan<Time>
        @usableFromInline var actions: Actions?
        @usableFromInline var next = Delivery.Next.idle
        @usableFromInline var downstream: Downstream
        /// Timed out: the upstream to cancel, and the closure that makes the failure.
        @usableFromInline var timedOut: ((any Subscription)?, (() -> Failure)?)?

        @inlinable
        init(
            plan: TimedPlan<Time>, actions: Actions?, next: Delivery.Next = .idle, downstream: Downstream,
            timedOut: ((any Subscription)?, (() -> Failure)?)? = nil
        ) {
            self.plan = plan
            self.actions = actions
            self.next = next
            self.downstream = downstream
            self.timedOut = timedOut
        }
    }

    /// Delivers `next`, then whatever else was admitted meanwhile, one signal at a time (the
    /// deliverer's loop of ``SerialDelivery``).
    @inlinable
    func deliver(_ next: Delivery.Next, to downstream: Downstream) {
        state.deliver(next, to: downstream, delivered: { state, more -> (((any Subscription), Subscribers.Demand)?, Delivery.Next) in
            let next = state.delivery.next(adding: Logic.dropsValues ? more : .none)
            if case .completion = next { state.terminate() }
            // A pass-through operator's downstream asks its upstream for more.
            return (Logic.dropsValues || more == .none ? nil : state.upstream.current.map { ($0, more) }, next)
        }, carryOut: { request in
            if let (upstream, more) = request { upstream.request(more) }
        })
    }

    // MARK: Subscription

    /// `debounce` and `throttle` keep the downstream's demand themselves and trap on
    /// `request(.none)` (rule 7); `delay` and `timeout` pass every request to the upstream.
    @inlinable
    func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

    @inlinable
    func handleRequest(_ demand: Subscribers.Demand) {
        if Logic.dropsValues && demand == .none { Violation.zeroDemandRequested() }
        let now = scheduler.now
        let (upstream, decision) = state.withLock { state -> ((any Subscription)?, Decision?) in
            guard state.downstream != nil else { return (nil, nil) }
            let decision = state.decision(state.logic.requested(now: now))
            if Logic.dropsValues {
                state.delivery.demand += demand
                return (nil, decision)
            }
            return (state.upstream.current, decision)
        }
        carryOut(decision)
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        let (upstream, downstream, actions) = state.withLock { state in
            let upstream = state.upstream.end()?.upstream
            let released = (state.downstream, state.actions)
            state.delivery.reset()
            state.logic.reset()
            state.terminate()
            return (upstream, released.0, released.1)
        }
        withExtendedLifetime((downstream, actions)) {}  // released here, after unlocking
        upstream?.cancel()
    }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
