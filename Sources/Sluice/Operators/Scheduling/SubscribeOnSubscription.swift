/// The subscription of `subscribe(on:)`: subscribing to the upstream, each request and the
/// cancel are one scheduled action each, as in Combine, run in order and one at a time on any
/// scheduler (``ScheduledTurns``). The upstream's signals pass straight through. A request that the
/// downstream makes from inside the upstream's `request(_:)` (from its `receive(_:)`, say) traps if the
/// scheduler runs it at once, where Combine's, which holds a lock across that call, crashes (rule 7).
@usableFromInline
final class SubscribeOnSubscription<Upstream: Publisher, Downstream: Subscriber, Context: Scheduler>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// A call to make upstream, on the scheduler.
    @usableFromInline
    enum Work {
        case subscribe(Upstream)
        case request(Subscribers.Demand)
        case cancel
    }

    @usableFromInline
    struct State {
        @usableFromInline var upstream = SubscriptionSlot.awaiting
        /// The downstream, until the stream ends.
        @usableFromInline var downstream: Downstream?
        @usableFromInline var cancelled = false
        /// Requested on the scheduler before the upstream's subscription came: passed on with it.
        @usableFromInline var demandBeforeSubscription = Subscribers.Demand.none
        @usableFromInline var work: ScheduledTurns<Work>
        /// The action handed to the scheduler for every call; dropped when the stream ends.
        @usableFromInline var action: (@Sendable () -> Void)?
        /// The thread inside the upstream's `request(_:)`, made by this subscription's action; 0 if none.
        @usableFromInline var requestingThread: UInt = 0
        /// That thread is scheduling a request of the downstream's, made from inside that call.
        @usableFromInline var requestReentering = false

        @inlinable
        init(publisher: Upstream, downstream: Downstream, coalesces: Bool) {
            self.downstream = downstream
            work = ScheduledTurns(coalesces: coalesces)
            _ = work.append(.subscribe(publisher))
        }

        /// Queues a call from the downstream while the stream is live; the action to schedule.
        @inlinable
        mutating func enqueue(_ call: Work) -> (@Sendable () -> Void)? {
            guard !cancelled, downstream != nil else { return nil }
            let scheduled = action
            if case .cancel = call {
                cancelled = true
                downstream = nil
                action = nil  // the scheduler holds it now: a scheduler dropped unrun frees all
            }
            return work.append(call) ? scheduled : nil
        }

        /// What to do with a subscription from the upstream.
        @usableFromInline
        enum Arrival {
            /// Give it to the downstream, then pass on the demand requested before it came.
            case deliver(Downstream, Subscribers.Demand)
            /// A second subscription: cancel it.
            case cancel
            /// The downstream cancelled first: leave it alone, as Combine does.
            case ignore
        }

        @inlinable
        mutating func subscribed(_ subscription: any Subscription) -> Arrival {
            guard let downstream else { return .ignore }
            guard upstream.attach(subscription) else { return .cancel }
            defer { demandBeforeSubscription = .none }
            return .deliver(downstream, demandBeforeSubscription)
        }
    }

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<State>
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?

    @inlinable
    init(upstream: Upstream, downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        state = Locked(State(
            publisher: upstream,
            downstream: downstream,
            coalesces: scheduler is any CoalescingScheduler
        ))
        self.scheduler = scheduler
        self.options = options
        let entry = ScheduledEntry { self.takeTurn() }
        state.withLock { $0.action = entry.action }
    }

    /// Schedules the subscription to the upstream.
    @inlinable
    func start() {
        if let action = state.withLock({ $0.action }) { scheduler.schedule(options: options, action) }
    }

    /// Run by the scheduler: makes the oldest queued call upstream (and, on a coalescing scheduler, those
    /// behind it), unless another thread is making one (then that thread makes it).
    @inlinable
    func takeTurn() {
        let (turn, reentered) = state.withLock { state in
            (state.work.actionRan(), state.requestReentering && state.requestingThread == currentThreadIdentity())
        }
        if reentered { Violation.subscribeOnReentered() }
        guard let first = turn else { return }
        var next = ScheduledTurns<Work>.Next.run(first)
        while case .run(let work) = next {
            perform(work)
            next = state.withLock { state in
                state.requestingThread = 0
                return state.work.finished()
            }
        }
        if case .reschedule = next {
            // After a cancel the stored action is gone; a run left over makes one.
            let action = state.withLock { $0.action } ?? ScheduledEntry { self.takeTurn() }.action
            scheduler.schedule(options: options, action)
        }
    }

    @inlinable
    func perform(_ work: Work) {
        switch work {
        case .subscribe(let publisher):
            // Even after a cancel, as the upstream may count on a subscribe for each
            // `receive(subscriber:)`; its subscription is then left alone, as in Combine.
            publisher.subscribe(self)
        case .request(let demand):
            let upstream = state.withLock { state -> (any Subscription)? in
                guard let upstream = state.upstream.current else {
                    if state.upstream.isAwaiting { state.demandBeforeSubscription += demand }
                    return nil
                }
                state.requestingThread = currentThreadIdentity()
                return upstream
            }
            upstream?.request(demand)
        case .cancel:
            let upstream = state.withLock { state -> (any Subscription)? in
                defer { state.action = nil }
                return state.upstream.end()?.upstream
            }
            upstream?.cancel()
        }
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        let arrival = state.withLock { $0.subscribed(subscription) }
        switch arrival {
        case .deliver(let downstream, let demand):
            downstream.receive(subscription: self)
            if demand > .none { subscription.request(demand) }
        case .cancel:
            subscription.cancel()
        case .ignore:
            break
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.upstream.isSubscribed ? $0.downstream : nil }) else { return .none }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let downstream = state.withLock { state -> Downstream? in
            // After a cancel the slot stays for the cancel's action, which Combine still makes.
            guard state.upstream.isSubscribed, state.downstream != nil else { return nil }
            _ = state.upstream.end()
            defer {
                state.downstream = nil
                state.action = nil
            }
            return state.downstream
        }
        downstream?.receive(completion: completion)
    }

    // MARK: Subscription (the downstream's calls)

    /// Passes `demand` upstream in an action of its own on the scheduler; `.none` too, as
    /// Combine does (the upstream decides what it means).
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let (action, reentering) = state.withLock { state in
            let action = state.enqueue(.request(demand))
            state.requestReentering = action != nil && state.requestingThread == currentThreadIdentity()
            return (action, state.requestReentering)
        }
        guard let action else { return }
        scheduler.schedule(options: options, action)
        // Run by now if the scheduler runs actions at once (and then it trapped); else it runs later.
        if reentering { state.withLock { $0.requestReentering = false } }
    }

    /// Lets the downstream go at once, and cancels the upstream in an action on the scheduler.
    @inlinable
    func cancel() {
        if let action = state.withLock({ $0.enqueue(.cancel) }) { scheduler.schedule(options: options, action) }
    }

    @usableFromInline var description: String { "SubscribeOn" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
