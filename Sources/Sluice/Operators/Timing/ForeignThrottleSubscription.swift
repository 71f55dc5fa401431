/// The subscription of `throttle(for:scheduler:latest:)` on a scheduler Sluice does not own (see
/// ``ForeignThrottleState``; on its own schedulers throttle runs on ``TimedSubscription``).
///
/// Its calls to the scheduler are Combine's, which a scheduler written for Combine may count: it reads `now`
/// when it is made, at the subscription, at each value and at the completion it takes, and when it emits a
/// value; it schedules an emission due now with `schedule(options: nil)` and a later one with
/// `schedule(after:tolerance: minimumTolerance, options: nil)`. The scheduled action holds the subscription
/// weakly, as Combine's does. The scheduler is called after unlocking (rule 6); emissions go through a
/// ``SerialDelivery`` (rule 3).
@usableFromInline
final class ForeignThrottleSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias Time = Context.SchedulerTimeType
    typealias Delivery = SerialDelivery<Input, Failure>

    @usableFromInline let combineIdentifier = CombineIdentifier()
    let state: Locked<ForeignThrottleState<Downstream, Time>>
    let interval: Time.Stride
    let scheduler: Context
    let latest: Bool
    /// The emission action, made once; it holds this subscription weakly.
    private(set) var emission: (@Sendable () -> Void)!

    @usableFromInline
    init(downstream: Downstream, interval: Time.Stride, scheduler: Context, latest: Bool) {
        state = Locked(ForeignThrottleState(downstream: downstream))
        self.interval = interval
        self.scheduler = scheduler
        self.latest = latest
        // Combine's reads the clock when its subscriber is made; the time is not used.
        _ = scheduler.now
        emission = ScheduledEntry { [weak self] in self?.emit() }.action
    }

    // MARK: The upstream

    @usableFromInline func receive(subscription: any Subscription) {
        guard state.withLock({ $0.upstream.isAwaiting }) else { return subscription.cancel() }
        _ = scheduler.now  // as Combine's, which notes the time and does not use it
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream.attach(subscription) else { return nil }
            return state.downstream
        }
        guard let downstream else { return subscription.cancel() }
        // Combine's order: the upstream is asked before the downstream has its subscription.
        subscription.request(.unlimited)
        downstream.receive(subscription: self)
        let deferred = state.withLock { state -> Bool in
            state.handedOn = true
            defer { state.emissionDeferred = false }
            return state.emissionDeferred
        }
        if deferred { emit() }
    }

    @usableFromInline func receive(_ input: Input) -> Subscribers.Demand {
        guard state.withLock({ $0.takesSignals }) else { return .none }
        let now = scheduler.now
        let plan = state.withLock { state -> Time?? in
            guard state.takesSignals else { return nil }
            if state.scheduled {
                // The waiting value has its demand already.
                if latest, state.pendingValue != nil { state.pendingValue = input }
                return nil
            }
            guard state.demand > .none else { return nil }
            state.demand -= 1
            state.pendingValue = input
            guard let next = state.lastEmission?.advanced(by: interval), next > now else { return .some(nil) }
            return .some(next)
        }
        switch plan {
        case .none: break
        case .some(.none): scheduler.schedule(options: nil, emission)
        case .some(.some(let time)):
            scheduler.schedule(after: time, tolerance: scheduler.minimumTolerance, options: nil, emission)
        }
        return .none
    }

    @usableFromInline func receive(completion: Subscribers.Completion<Failure>) {
        guard state.withLock({ $0.takesSignals }) else { return }
        _ = scheduler.now  // as Combine's, which notes the time and does not use it
        let schedule = state.withLock { state -> Bool in
            guard state.takesSignals else { return false }
            state.completed = true
            guard state.pendingCompletion == nil else { return false }
            defer { state.pendingCompletion = completion }
            return !state.scheduled
        }
        if schedule { scheduler.schedule(options: nil, emission) }
    }

    // MARK: The scheduler

    /// The scheduled emission ran: the value waiting (its time noted) and the completion.
    func emit() {
        let needsTime = state.withLock { state -> Bool? in
            guard state.downstream != nil, state.upstream.isSubscribed else { return nil }
            guard state.handedOn else {
                state.emissionDeferred = true
                return nil
            }
            return state.pendingValue != nil && state.pendingCompletion == nil
        }
        guard let needsTime else { return }
        let now = needsTime ? scheduler.now : nil
        let next = state.withLock { state -> (Delivery.Next, Downstream)? in
            guard let downstream = state.downstream, state.upstream.isSubscribed else { return nil }
            if let now, state.pendingCompletion == nil { state.lastEmission = now }
            var next = Delivery.Next.idle
            if let value = state.pendingValue.take(), case .deliver = state.delivery.admit(value) {
                next = .value(value)
            }
            if let completion = state.pendingCompletion.take() {
                _ = state.upstream.end()
                if state.delivery.finish(completion) {
                    next = .completion(completion)
                    state.downstream = nil
                }
            }
            return (next, downstream)
        }
        if let (next, downstream) = next { deliver(next, to: downstream) }
    }

    /// The deliverer's loop: the demand the downstream returns adds to its demand.
    func deliver(_ next: Delivery.Next, to downstream: Downstream) {
        state.deliver(next, to: downstream, delivered: { state, more -> (Void, Delivery.Next) in
            if state.downstream != nil { state.demand += more }
            let next = state.delivery.next(adding: .none)
            if case .completion = next { state.downstream = nil }
            return ((), next)
        }, carryOut: { (_: Void) in })
    }

    // MARK: Subscription

    /// Adds to the downstream's demand; the upstream has `.unlimited` already. `.none` is
    /// ignored, as Combine's does.
    @usableFromInline func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        state.withLock { state in
            guard state.takesSignals, state.downstream != nil else { return }
            state.demand += demand
        }
    }

    /// Cancels the upstream and lets go of the downstream; an emission still scheduled finds
    /// nothing. A cancel before the upstream's subscription makes it cancel that subscription
    /// when it comes, as in Combine.
    @usableFromInline func cancel() {
        let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
            state.pendingValue = nil
            state.pendingCompletion = nil
            state.delivery.reset()
            defer { state.downstream = nil }
            return (state.upstream.end()?.upstream, state.downstream)
        }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        upstream?.cancel()
    }

    @usableFromInline var description: String { "Throttle" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
