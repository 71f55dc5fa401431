/// The signal action and the timer action of a ``TimedSubscription``.
///
/// A struct, not a tuple: closures in a tuple inside an `Optional` (or any generic) are kept at the generic
/// representation, and each read converts them through a thunk that allocates — two allocations per value.
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
    /// The downstream has its subscription. `throttle` asks its upstream first, so a run can
    /// come before (the upstream completes inside the request, on an immediate scheduler):
    /// it waits, in `runWaiting`, until the downstream has it (rule 1).
    @usableFromInline var handedOn = !Logic.throttlesEdges
    @usableFromInline var runWaiting: TimedAction?

    @inlinable
    init(downstream: Downstream, logic: Logic) {
        self.downstream = downstream
        self.logic = logic
    }

    /// The downstream has its subscription: the run that waited for it, if any.
    @inlinable
    mutating func handOn() -> TimedAction? {
        handedOn = true
        return runWaiting.take()
    }

    /// Offers `value` (dropped without demand), then `completion`, to the delivery: what the
    /// caller delivers now (the rest is delivered by whoever is delivering already).
    @inlinable
    mutating func admit(
        _ value: Downstream.Input?,
        then completion: Subscribers.Completion<Downstream.Failure>?
    ) -> Delivery.Next {
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
