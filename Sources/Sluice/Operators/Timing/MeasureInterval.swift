extension Publishers {
    /// A publisher that measures and emits the time between its upstream's elements, on a scheduler's clock.
    ///
    /// Each element becomes the stride from the one before (from the subscription, for the first), read from
    /// `scheduler.now` as it arrives: the scheduler runs nothing, and the subscriber is called on the
    /// upstream's thread. Demand passes through one for one: the subscriber's requests go to the upstream,
    /// and so does the demand it returns from `receive(_:)`, as a `request(_:)` (the upstream gets `.none`
    /// back, as from Combine's). The completion and a failure pass on as they are. A cancel before the
    /// upstream's subscription arrives is ignored, as in Combine.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Context.SchedulerTimeType.Stride
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one times.
        public let upstream: Upstream

        /// The scheduler whose clock measures the intervals.
        public let scheduler: Context

        /// Creates a publisher that emits the time between `upstream`'s elements.
        @inlinable
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Subscribes `subscriber` to the upstream through a measuring subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: MeasureIntervalSubscription<Upstream.Output, S, Context>(
                    downstream: subscriber,
                    scheduler: scheduler
                )
            )
        }
    }
}

extension Publishers.MeasureInterval: Sendable where Upstream: Sendable, Context: Sendable {}

extension Publisher {
    /// Replaces each element with the time since the one before (since the subscription, for
    /// the first), as `scheduler` measures it.
    ///
    /// `options` is accepted for Combine's signature; nothing is scheduled, so it is unused.
    @inlinable
    public func measureInterval<S: Scheduler>(
        using scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}
