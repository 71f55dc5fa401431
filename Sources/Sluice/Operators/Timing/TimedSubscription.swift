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

/// One of the two actions a ``TimedSubscription`` hands its scheduler.
@usableFromInline
enum TimedAction {
    /// The action that delivers a signal: a delayed one, a hop, a throttled emission.
    case signal
    /// The action of the deadline (`debounce`'s due time, `timeout`'s interval).
    case timer
}

/// What a ``TimedLogic`` asks of the scheduler after an event; the subscription schedules it
/// after unlocking.
@usableFromInline
struct TimedPlan<Time> {
    /// Run the signal action as soon as the scheduler can (`schedule(options:_:)`).
    @usableFromInline var hop = false
    /// Run the signal action at this time.
    @usableFromInline var signalAt: Time?
    /// Run the timer action at this time.
    @usableFromInline var timerAt: Time?

    @inlinable init(hop: Bool = false, signalAt: Time? = nil, timerAt: Time? = nil) {
        self.hop = hop
        self.signalAt = signalAt
        self.timerAt = timerAt
    }

    /// Nothing to schedule (most values in a burst: the timer is already set).
    @inlinable var isEmpty: Bool { !hop && signalAt == nil && timerAt == nil }
}

/// What a run of a scheduled action delivers, decided by the ``TimedLogic``.
@usableFromInline
struct TimedFiring<Output, Failure: Error, Time> {
    /// A value for the downstream (dropped if it has no demand).
    @usableFromInline var value: Output?
    /// The completion, after `value`.
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// `timeout` gave up: cancel the upstream and end with `customError()` (`.finished` without
    /// it), called after unlocking.
    @usableFromInline var timedOut = false
    @usableFromInline var customError: (() -> Failure)?
    /// More to schedule.
    @usableFromInline var plan = TimedPlan<Time>()

    @inlinable init() {}
}

/// A signal waiting in a scheduled operator's queue (`delay`, `timeout`).
@usableFromInline
enum TimedSignal<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)

    /// The signal as what a run delivers.
    @inlinable
    func firing<Time>() -> TimedFiring<Output, Failure, Time> {
        var firing = TimedFiring<Output, Failure, Time>()
        switch self {
        case .value(let value): firing.value = value
        case .completion(let completion): firing.completion = completion
        }
        return firing
    }
}

/// The state machine of one scheduled operator, kept under its subscription's lock. Each event
/// gets the scheduler's time, read before locking; it answers with what to schedule or deliver.
/// The subscription gates the events (no upstream signal after the completion or a cancel, no
/// run after the subscription terminated).
@usableFromInline
protocol TimedLogic<Output, Failure, Time> {
    associatedtype Output
    associatedtype Failure: Error
    associatedtype Time: Strideable

    /// `true`: asks the upstream for `.unlimited` and delivers within the downstream's demand
    /// (`debounce`, `throttle`); `false`: passes demand upstream (`delay`, `timeout`).
    static var dropsValues: Bool { get }

    /// Combine's name for the subscription (`description`).
    var name: String { get }

    /// The upstream's subscription arrived (the downstream has had its own).
    mutating func subscribed(now: Time) -> TimedPlan<Time>
    /// The downstream requested more.
    mutating func requested(now: Time) -> TimedPlan<Time>
    /// A value from the upstream; `demand` is the downstream's outstanding demand (for
    /// operators that drop values).
    mutating func receive(_ value: Output, now: Time, demand: Subscribers.Demand) -> TimedPlan<Time>
    /// The upstream's completion.
    mutating func receive(completion: Subscribers.Completion<Failure>, now: Time) -> TimedPlan<Time>
    /// One of the subscription's actions runs.
    mutating func fire(_ action: TimedAction, now: Time) -> TimedFiring<Output, Failure, Time>
    /// The subscription is cancelled: drop what is held.
    mutating func reset()
}

extension TimedLogic {
    @inlinable mutating func subscribed(now: Time) -> TimedPlan<Time> { TimedPlan() }
    @inlinable mutating func requested(now: Time) -> TimedPlan<Time> { TimedPlan() }
}

/// A deadline with at most one scheduled run at a time (`debounce`'s due time, `timeout`'s
/// interval): moving the deadline later schedules nothing; the run, when it comes early,
/// schedules one more run for the new deadline. So a steady stream of values schedules one
/// action per deadline that passes, not one per value.
///
/// ```text
/// off ──set(t)──▶ armed(for: t, due: t) ──set(t')──▶ armed(for: t, due: t')
///                    │ fired: due == for: expired      │ fired: due > for: armed(for: t', due: t')
/// ```
@usableFromInline
struct Deadline<Time: Comparable> {
    /// When it expires; `nil` when off.
    @usableFromInline var due: Time?
    /// The time the one scheduled run is for, if one is scheduled.
    @usableFromInline var scheduledFor: Time?

    @inlinable init() {}

    /// What a run of the timer found.
    @usableFromInline
    enum Run {
        /// The deadline passed.
        case expired
        /// It had moved: schedule the timer again, for this time.
        case rescheduled(Time)
        /// It was switched off.
        case off
    }

    /// Sets the deadline to `time`; returns the time to schedule the timer for, if no run is
    /// scheduled yet.
    @inlinable
    mutating func set(_ time: Time) -> Time? {
        due = time
        guard scheduledFor == nil else { return nil }
        scheduledFor = time
        return time
    }

    /// Switches the deadline off: the scheduled run, if any, will find nothing.
    @inlinable mutating func clear() { due = nil }

    /// The scheduled run has come.
    @inlinable
    mutating func fired() -> Run {
        let scheduled = scheduledFor
        scheduledFor = nil
        guard let due, let scheduled else { return .off }
        if scheduled < due {
            scheduledFor = due
            return .rescheduled(due)
        }
        self.due = nil
        return .expired
    }
}

/// The signal action and the timer action of a ``TimedSubscription``.
///
/// A struct, not a tuple: closures in a tuple inside an `Optional` (or any generic) are kept
/// at the generic representation, and each read converts them through a thunk that
/// allocates — two allocations per value.
@usableFromInline
struct TimedActions {
    @usableFromInline let signal: @Sendable () -> Void
    @usableFromInline let timer: @Sendable () -> Void

    @inlinable
    init(signal: @escaping @Sendable () -> Void, timer: @escaping @Sendable () -> Void) {
        self.signal = signal
        self.timer = timer
    }
}

/// The state of a ``TimedSubscription``, under its lock.
@usableFromInline
struct TimedState<Downstream: Subscriber, Logic: TimedLogic>
where Logic.Output == Downstream.Input, Logic.Failure == Downstream.Failure {
    @usableFromInline typealias Delivery = SerialDelivery<Downstream.Input, Downstream.Failure>

    /// `nil` once terminated: cancelled, or the completion handed over.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream = SubscriptionSlot.awaiting
    @usableFromInline var delivery = Delivery()
    @usableFromInline var logic: Logic
    /// The two actions handed to the scheduler, made once; dropped on termination.
    @usableFromInline var actions: TimedActions?

    @inlinable
    init(downstream: Downstream, logic: Logic) {
        self.downstream = downstream
        self.logic = logic
        // A pass-through operator's upstream keeps the demand.
        if !Logic.dropsValues { delivery.demand = .unlimited }
    }

    /// Offers `value` (dropped without demand), then `completion`, to the delivery: what the
    /// caller delivers now (the rest is delivered by whoever is delivering already).
    @inlinable
    mutating func admit(_ value: Downstream.Input?, then completion: Subscribers.Completion<Downstream.Failure>?) -> Delivery.Next {
        var next = Delivery.Next.idle
        if let value, case .deliver = delivery.admit(value) { next = .value(value) }
        if let completion, delivery.finish(completion) {
            next = .completion(completion)
            terminate()
        }
        return next
    }

    /// `plan` with the actions to carry it out, or nil when there is nothing to schedule, so
    /// that a value that schedules nothing copies no closure out of the lock.
    @inlinable
    func decision(_ plan: TimedPlan<Logic.Time>) -> (plan: TimedPlan<Logic.Time>, actions: TimedActions?)? {
        plan.isEmpty ? nil : (plan, actions)
    }

    /// Lets go of the downstream and the actions (ending their cycle through this state).
    @inlinable
    mutating func terminate() {
        downstream = nil
        actions = nil
    }
}

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
