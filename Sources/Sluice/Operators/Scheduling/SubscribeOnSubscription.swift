/// The subscription of `subscribe(on:)`: one scheduled entry does, in turn, whatever is due —
/// subscribe to the upstream (first), pass it the demand requested since the last run, cancel
/// it — so that the upstream is only ever called on the scheduler, one call at a time, and
/// scheduling allocates nothing. The upstream's signals pass straight through.
@usableFromInline
final class SubscribeOnSubscription<Upstream: Publisher, Downstream: Subscriber, Context: Scheduler>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    struct State {
        /// The publisher, until the scheduler subscribes to it.
        @usableFromInline var publisher: Upstream?
        @usableFromInline var upstream = SubscriptionSlot.awaiting
        /// The downstream, until the stream ends.
        @usableFromInline var downstream: Downstream?
        /// Requested and not yet passed upstream.
        @usableFromInline var demand = Subscribers.Demand.none
        @usableFromInline var cancelled = false
        /// The entry is scheduled and has not started yet.
        @usableFromInline var scheduled = false
        @usableFromInline var entry: (@Sendable () -> Void)?

        @inlinable
        init(publisher: Upstream, downstream: Downstream) {
            self.publisher = publisher
            self.downstream = downstream
        }

        /// The entry, if the caller must schedule it.
        @inlinable
        mutating func schedule() -> (@Sendable () -> Void)? {
            guard !scheduled else { return nil }
            scheduled = true
            return entry
        }

        /// What the scheduled entry does now.
        @usableFromInline
        enum Work {
            case subscribe(Upstream)
            case request(any Subscription, Subscribers.Demand)
            case cancel(any Subscription)
            case nothing
        }

        @inlinable
        mutating func work() -> Work {
            scheduled = false
            if let publisher {
                self.publisher = nil
                // The first run subscribes even after a cancel (the subscription then cancels at
                // once), as the upstream may count on a subscribe for each `receive(subscriber:)`.
                return .subscribe(publisher)
            }
            if cancelled {
                entry = nil
                if let upstream = upstream.end()?.upstream { return .cancel(upstream) }
                return .nothing
            }
            guard demand > .none, let upstream = upstream.current else { return .nothing }
            defer { demand = .none }
            return .request(upstream, demand)
        }
    }

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<State>
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?

    @inlinable
    init(upstream: Upstream, downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        state = Locked(State(publisher: upstream, downstream: downstream))
        self.scheduler = scheduler
        self.options = options
        let entry = ScheduledEntry { self.run() }
        state.withLock { $0.entry = entry.action }
    }

    /// Schedules the subscription to the upstream.
    @inlinable
    func start() {
        if let entry = state.withLock({ $0.schedule() }) { scheduler.schedule(options: options, entry) }
    }

    /// Run by the scheduler: does what is due, then again if more came due meanwhile.
    @inlinable
    func run() {
        switch state.withLock({ $0.work() }) {
        case .subscribe(let publisher):
            publisher.subscribe(self)
            // Demand or a cancel that came while subscribing is passed on in a later run.
            if let entry = state.withLock({ $0.demand > .none || $0.cancelled ? $0.schedule() : nil }) {
                scheduler.schedule(options: options, entry)
            }
        case .request(let upstream, let demand):
            upstream.request(demand)
        case .cancel(let upstream):
            upstream.cancel()
        case .nothing:
            break
        }
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.downstream != nil, state.upstream.attach(subscription) else { return nil }
            return state.downstream
        }
        // A second subscription, or the first one after a cancel: cancel it (we are on the
        // scheduler, running the subscribe).
        guard let downstream else { return subscription.cancel() }
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.downstream }) else { return .none }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream.end() != nil else { return nil }
            defer {
                state.downstream = nil
                state.entry = nil
            }
            return state.downstream
        }
        downstream?.receive(completion: completion)
    }

    // MARK: Subscription (the downstream's calls)

    /// Adds `demand` for the next scheduled run. `request(.none)` traps here, where the caller
    /// made it, rather than later on the scheduler (rule 7).
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let entry = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.cancelled, state.downstream != nil else { return nil }
            state.demand += demand
            return state.schedule()
        }
        if let entry { scheduler.schedule(options: options, entry) }
    }

    @inlinable
    func cancel() {
        let entry = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.cancelled, state.downstream != nil else { return nil }
            state.cancelled = true
            state.downstream = nil
            return state.schedule()
        }
        if let entry { scheduler.schedule(options: options, entry) }
    }

    @usableFromInline var description: String { "SubscribeOn" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
