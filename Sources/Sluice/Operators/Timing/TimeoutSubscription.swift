/// The subscription of `timeout(_:scheduler:options:customError:)` (see ``TimeoutState``).
///
/// Its calls to the scheduler are Combine's, in Combine's order: each (re)start of the wait reads `now`, then
/// `minimumTolerance`, then schedules a repeating timer with `schedule(after:interval:tolerance:options:)`;
/// each value and the completion are handed on with `schedule(options:)`. The scheduler is called after
/// unlocking (rule 6); deliveries go through a ``SerialDelivery``, so they never overlap (rule 3).
final class TimeoutSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let combineIdentifier = CombineIdentifier()
    let state: Locked<TimeoutState<Downstream>>
    let interval: Context.SchedulerTimeType.Stride
    let scheduler: Context
    let options: Context.SchedulerOptions?
    let customError: (() -> Failure)?

    init(
        downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
        options: Context.SchedulerOptions?, customError: (() -> Failure)?
    ) {
        state = Locked(TimeoutState(downstream: downstream))
        self.interval = interval
        self.scheduler = scheduler
        self.options = options
        self.customError = customError
    }

    // MARK: The upstream

    func receive(subscription: any Subscription) {
        // The action is made here, not in the initialiser: a subscription no upstream takes holds no cycle.
        let action = ScheduledEntry { self.hopped() }.action
        guard let downstream = state.withLock({ $0.signals.attach(subscription, action: action) }) else {
            return subscription.cancel()
        }
        downstream.receive(subscription: self)
        // Combine starts the wait just before handing the subscription on; starting it just
        // after makes the same calls at the same virtual instant, and no timer can reach the
        // downstream before its subscription (rule 1).
        restartTimer()
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard let hop = state.withLock({ $0.signals.enqueue(.value(input)) }) else { return .none }
        restartTimer()
        scheduler.schedule(options: options, hop)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let taken = state.withLock { state -> ((any Cancellable)?, @Sendable () -> Void)? in
            guard let hop = state.signals.enqueue(.completion(completion)) else { return nil }
            defer { state.timer = nil }
            return (state.timer, hop)
        }
        guard let (timer, hop) = taken else { return }
        timer?.cancel()
        scheduler.schedule(options: options, hop)
    }

    // MARK: The scheduler

    /// Cancels the current timer and starts a new one, `interval` from now (unless the stream
    /// ended or the upstream completed).
    func restartTimer() {
        let started = state.withLock { state -> ((any Cancellable)?, UInt64)? in
            guard state.signals.takesSignals else { return nil }
            state.generation &+= 1
            state.schedulingThread = currentThreadIdentity()
            defer { state.timer = nil }
            return (state.timer, state.generation)
        }
        guard let (previous, generation) = started else { return }
        previous?.cancel()
        let due = scheduler.now.advanced(by: interval)
        let tolerance = scheduler.minimumTolerance
        let timer = scheduler.schedule(
            after: due, interval: interval, tolerance: tolerance, options: options,
            ScheduledEntry { self.timerFired(generation) }.action)
        let stale = state.withLock { state -> (any Cancellable)? in
            if state.schedulingThread == currentThreadIdentity() { state.schedulingThread = 0 }
            guard state.signals.takesSignals, state.generation == generation else { return timer }
            state.timer = timer
            return nil
        }
        stale?.cancel()
    }

    /// The timer ran: unless a value came meanwhile, the upstream is cancelled, what is on its
    /// way is dropped, and the downstream gets `customError()` or `.finished`.
    func timerFired(_ generation: UInt64) {
        let ended = state.withLock { state -> (TimeoutState<Downstream>.Ended, reentered: Bool)? in
            if state.schedulingThread == currentThreadIdentity() { return (TimeoutState<Downstream>.Ended(), true) }
            guard state.signals.takesSignals, state.generation == generation else { return nil }
            return (state.end(), false)
        }
        guard let (ended, reentered) = ended else { return }
        // Combine's timeout deadlocks on its own lock there (a crash); so does this one, with a message.
        if reentered { Violation.timerRanInsideSchedule("timeout") }
        ended.timer?.cancel()
        ended.upstream?.cancel()
        withExtendedLifetime(ended.action) {}
        let completion: Subscribers.Completion<Failure> = customError.map { .failure($0()) } ?? .finished
        let next = state.withLock { state -> (SerialDelivery<Input, Failure>.Next, Downstream)? in
            guard let downstream = state.signals.downstream else { return nil }
            state.signals.delivery.dropQueued()
            guard state.signals.delivery.finish(completion) else { return nil }
            state.signals.downstream = nil
            return (.completion(completion), downstream)
        }
        if let (next, downstream) = next { state.deliver(next, to: downstream, signals: \.signals) }
    }

    /// The hop action: delivers the oldest signal on its way, unless the stream ended.
    func hopped() {
        if let (next, downstream) = state.withLock({ $0.signals.runOldest() }) {
            state.deliver(next, to: downstream, signals: \.signals)
        }
    }

    // MARK: Subscription

    /// Passes `demand` to the upstream (`.none` too, as Combine's does); the first request
    /// starts the wait over.
    func request(_ demand: Subscribers.Demand) {
        let (upstream, first) = state.withLock { state -> ((any Subscription)?, Bool) in
            guard state.signals.downstream != nil, let upstream = state.signals.upstream.current else {
                return (nil, false)
            }
            defer { state.requested = true }
            return (upstream, !state.requested)
        }
        if first { restartTimer() }
        upstream?.request(demand)
    }

    /// Cancels the upstream and the timer, and lets go of the downstream. Before the
    /// upstream's subscription has come it does nothing, as in Combine.
    func cancel() {
        let ended = state.withLock { state -> (TimeoutState<Downstream>.Ended, Downstream)? in
            guard !state.signals.upstream.isAwaiting, let downstream = state.signals.downstream else { return nil }
            let ended = state.end()
            state.signals.delivery.reset()
            state.signals.downstream = nil
            return (ended, downstream)
        }
        guard let (ended, downstream) = ended else { return }
        ended.timer?.cancel()
        withExtendedLifetime((downstream, ended.action)) {}  // released here, after unlocking
        ended.upstream?.cancel()
    }

    var description: String { "Timeout" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
}
