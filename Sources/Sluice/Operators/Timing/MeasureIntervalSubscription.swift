/// The subscription of `measureInterval(using:options:)`: each element becomes the stride from
/// the previous one (from the upstream's subscription, for the first), on the scheduler's clock.
/// The clock is read before locking and the downstream called after (rule 6); the upstream's
/// signals are serial, so the downstream's are.
@usableFromInline
final class MeasureIntervalSubscription<Input, Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Context.SchedulerTimeType.Stride {
    @usableFromInline typealias Failure = Downstream.Failure

    /// `downstream` is `nil` once cancelled or completed; `last` is when the last element (or
    /// the subscription) arrived.
    @usableFromInline
    struct State {
        @usableFromInline var downstream: Downstream?
        @usableFromInline var upstream = SubscriptionSlot.awaiting
        @usableFromInline var last: Context.SchedulerTimeType?
        @inlinable init(downstream: Downstream) { self.downstream = downstream }
    }

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<State>
    @usableFromInline let scheduler: Context

    @inlinable
    init(downstream: Downstream, scheduler: Context) {
        state = Locked(State(downstream: downstream))
        self.scheduler = scheduler
    }

    @inlinable
    func receive(subscription: any Subscription) {
        // Checked before the clock is read, so that a second subscription reads nothing.
        guard state.withLock({ $0.upstream.isAwaiting }) else { return subscription.cancel() }
        let now = scheduler.now
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream.attach(subscription) else { return nil }
            state.last = now
            return state.downstream
        }
        guard let downstream else { return subscription.cancel() }
        downstream.receive(subscription: self)
    }

    /// The clock is read only while subscribed (a value after a cancel reads nothing, as in
    /// Combine); the demand the downstream returns goes to the upstream through `request(_:)`,
    /// and `.none` comes back, as Combine's does.
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard state.withLock({ $0.downstream != nil && $0.last != nil }) else { return .none }
        let now = scheduler.now
        let measured = state.withLock { state -> (Downstream, Context.SchedulerTimeType.Stride, (any Subscription)?)? in
            guard let downstream = state.downstream, let last = state.last else { return nil }
            state.last = now
            return (downstream, last.distance(to: now), state.upstream.current)
        }
        guard let (downstream, interval, upstream) = measured else { return .none }
        let more = downstream.receive(interval)
        if more > .none { upstream?.request(more) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream.end()?.upstream != nil else { return nil }
            defer { state.downstream = nil }
            return state.downstream
        }
        downstream?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.downstream == nil ? nil : $0.upstream.current }?.request(demand)
    }

    /// A cancel before the upstream's subscription does nothing, as in Combine (that
    /// subscription is then taken as usual).
    @inlinable
    func cancel() {
        let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
            guard state.upstream.isSubscribed else { return (nil, nil) }
            defer { state.downstream = nil }
            return (state.upstream.end()?.upstream, state.downstream)
        }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        upstream?.cancel()
    }

    @usableFromInline var description: String { "MeasureInterval" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
