/// The subscription of `collect(_:options:)` by time: the upstream's subscriber, the downstream's
/// subscription, and the runs its scheduler makes. Every decision is made by ``CollectByTimeState`` under one
/// lock; the calls to the downstream, the upstream and the scheduler are made after it (rule 6).
///
/// It makes one `ScheduledEntry` when the upstream's subscription arrives, and hands its one
/// `@Sendable` action to the scheduler for the repeating timer and for every run after, so a
/// tick allocates nothing but the arrays it sends. The action holds this subscription until
/// it terminates (a cancel, or the completion handed out), which drops it.
final class CollectByTimeSubscription<Downstream: Subscriber, Element, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == [Element] {
    typealias Input = Element
    typealias Failure = Downstream.Failure

    let combineIdentifier = CombineIdentifier()
    private let state: Locked<CollectByTimeState<Downstream, Element>>
    private let scheduler: Context
    private let stride: Context.SchedulerTimeType.Stride
    private let options: Context.SchedulerOptions?

    init(
        downstream: Downstream,
        strategy: Publishers.TimeGroupingStrategy<Context>,
        options: Context.SchedulerOptions?
    ) {
        let count: Int?
        switch strategy {
        case .byTime(let scheduler, let stride):
            (self.scheduler, self.stride, count) = (scheduler, stride, nil)
        case .byTimeOrCount(let scheduler, let stride, let limit):
            (self.scheduler, self.stride, count) = (scheduler, stride, limit)
        }
        self.options = options
        state = Locked(CollectByTimeState(downstream: downstream, count: count))
    }

    // MARK: The upstream

    /// Gives the downstream this subscription, then starts the timer (so that no tick can
    /// reach the downstream before its subscription, rule 1).
    func receive(subscription: any Subscription) {
        let action = ScheduledEntry { self.run() }.action
        guard let downstream = state.withLock({ $0.attach(subscription, action: action) }) else {
            return subscription.cancel()
        }
        downstream.receive(subscription: self)
        guard let timerAction = state.withLock({ $0.timerAction }) else { return }
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: stride), interval: stride, tolerance: scheduler.minimumTolerance,
            options: options, timerAction)
        state.withLock { $0.started(timer) }?.cancel()
    }

    func receive(_ input: Element) -> Subscribers.Demand {
        if let action = state.withLock({ $0.receive(input) }) { scheduler.schedule(options: options, action) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let (timer, action) = state.withLock { $0.upstreamCompleted(completion) }
        timer?.cancel()
        if let action { scheduler.schedule(options: options, action) }
    }

    // MARK: The scheduler's runs

    /// A tick or a scheduled run: delivers what is closed and has demand, one signal at a
    /// time, asking the upstream for what the downstream's returned demand calls for.
    private func run() {
        let (next, downstream) = state.withLock { $0.run() }
        guard let downstream else { return }
        state.deliver(next, to: downstream, delivered: { $0.delivered($1) }, carryOut: { upstream, demand in
            if let upstream, demand > .none { upstream.request(demand) }
        })
    }

    // MARK: Subscription

    /// Adds `demand` arrays (`.none` adds nothing), asks the upstream accordingly, and
    /// schedules a run if closed arrays can now go out.
    func request(_ demand: Subscribers.Demand) {
        let (upstream, upstreamDemand, action) = state.withLock { $0.request(demand) }
        if let upstream, upstreamDemand > .none { upstream.request(upstreamDemand) }
        if let action { scheduler.schedule(options: options, action) }
    }

    func cancel() {
        let ended = state.withLock { $0.cancel() }
        ended.timer?.cancel()
        ended.upstream?.cancel()
        withExtendedLifetime(ended) {}  // the downstream and the action are released here, after unlocking
    }

    var description: String { "CollectByTime" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
}
