extension Publishers {
    /// A publisher that publishes at most one element per interval: the first or the latest
    /// of those its upstream sent meanwhile.
    ///
    /// The first element goes out at once (on the scheduler, at its next turn); after an emission, the next
    /// goes out `interval` after it, and is the latest element received meanwhile (`latest`) or the first
    /// (`!latest`). An element arriving after a quiet period longer than `interval` goes out at once. The
    /// upstream is asked for `.unlimited`, and an element that arrives while the subscriber has no demand is
    /// dropped. The completion (a failure too) comes right after the element still waiting, or at the
    /// scheduler's next turn. Everything is delivered on the scheduler, one signal at a time.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one throttles.
        public let upstream: Upstream

        /// The least time between two emitted elements.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler that delivers the elements.
        public let scheduler: Context

        /// Whether to emit the latest element received in an interval (`true`) or the first.
        public let latest: Bool

        /// Creates a publisher that emits at most one of `upstream`'s elements per `interval`.
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Subscribes `subscriber` to the upstream through a throttling subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            guard scheduler is any OwnScheduler else {
                return upstream.receive(
                    subscriber: ForeignThrottleSubscription(
                        downstream: subscriber,
                        interval: interval,
                        scheduler: scheduler,
                        latest: latest
                    )
                )
            }
            let logic = ThrottleState<Output, Failure, Context.SchedulerTimeType>(interval: interval, latest: latest)
            upstream.receive(
                subscriber: TimedSubscription(
                    downstream: subscriber,
                    logic: logic,
                    scheduler: scheduler,
                    tolerance: nil,
                    options: nil
                )
            )
        }
    }
}

extension Publishers.Throttle: Sendable
where Upstream: Sendable, Context: Sendable, Context.SchedulerTimeType.Stride: Sendable {}

extension Publisher {
    /// Publishes at most one element per `interval`: the latest received in it (`latest`) or the first.
    @inlinable
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}
