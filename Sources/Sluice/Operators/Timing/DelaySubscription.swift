/// The subscription of `delay(for:tolerance:scheduler:options:)`: its state is a ``QueuedSignals``.
///
/// Its calls to the scheduler are Combine's: for each signal it reads `now` and schedules with
/// `schedule(after: now + interval, tolerance:options:)`; nothing else (the clock is not read
/// at the subscription, at a request or when a signal is delivered). The scheduled action holds
/// the subscription strongly until the subscription ends, as Combine's does until it has run.
/// The scheduler is called after unlocking (rule 6). It has no description or mirror of its
/// own, as Combine's has none: a log shows its type.
final class DelaySubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let combineIdentifier = CombineIdentifier()
    let state: Locked<QueuedSignals<Downstream>>
    let interval: Context.SchedulerTimeType.Stride
    let tolerance: Context.SchedulerTimeType.Stride
    let scheduler: Context
    let options: Context.SchedulerOptions?

    init(
        downstream: Downstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
        scheduler: Context, options: Context.SchedulerOptions?
    ) {
        state = Locked(QueuedSignals(downstream: downstream))
        self.interval = interval
        self.tolerance = tolerance
        self.scheduler = scheduler
        self.options = options
    }

    // MARK: The upstream

    func receive(subscription: any Subscription) {
        // The action is made here, not in the initialiser: a subscription no upstream takes holds no cycle.
        guard let downstream = state.withLock({
            $0.attach(subscription, action: ScheduledEntry { self.run() }.action)
        }) else {
            return subscription.cancel()
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enqueue(.value(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        enqueue(.completion(completion))
    }

    /// Queues `signal` and schedules its run, `interval` from now.
    func enqueue(_ signal: TimedSignal<Input, Failure>) {
        guard let action = state.withLock({ $0.enqueue(signal) }) else { return }
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, action)
    }

    /// A run: delivers the oldest signal waiting, unless the subscription ended.
    func run() {
        if let (next, downstream) = state.withLock({ $0.runOldest() }) {
            state.deliver(next, to: downstream, signals: \.self)
        }
    }

    // MARK: Subscription

    /// Passes `demand` to the upstream (`.none` too, as Combine's does), until it completes.
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.takesSignals && $0.downstream != nil ? $0.upstream.current : nil }?.request(demand)
    }

    /// Cancels the upstream (unless it completed) and lets go of the downstream; the signals
    /// still scheduled deliver nothing (Combine's still delivers a completion it scheduled).
    /// Before the upstream's subscription has come it does nothing, as in Combine.
    func cancel() {
        let ended = state.withLock { state -> ((any Subscription)?, (@Sendable () -> Void)?, Downstream)? in
            guard !state.upstream.isAwaiting, let downstream = state.downstream else { return nil }
            let completed = state.completed
            let (upstream, action) = state.end()
            state.delivery.reset()
            state.downstream = nil
            return (completed ? nil : upstream, action, downstream)
        }
        guard let (upstream, action, downstream) = ended else { return }
        withExtendedLifetime((downstream, action)) {}  // released here, after unlocking
        upstream?.cancel()
    }

}
