extension Publishers {
    /// A publisher that delays delivery of its upstream's elements and completion by a fixed
    /// interval, on a scheduler.
    ///
    /// Each element, and the completion (a failure too), reaches the downstream `interval` after it arrived,
    /// in the order it arrived, through the scheduler: the subscriber is called on the scheduler's thread.
    /// The subscription itself is not delayed. Demand passes to the upstream as requested, and the demand the
    /// subscriber returns from `receive(_:)` goes to the upstream when the element is delivered. After a
    /// cancel, the signals still scheduled deliver nothing (Combine still delivers a completion it had
    /// scheduled). A cancel before the upstream's subscription has come is ignored, as in Combine. Each
    /// signal costs one read of the scheduler's `now` and one `schedule(after:tolerance:options:)`, as in
    /// Combine.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose signals this one delays.
        public let upstream: Upstream

        /// How long each signal is delayed.
        public let interval: Context.SchedulerTimeType.Stride

        /// How much sooner or later than `interval` a signal may be delivered.
        public let tolerance: Context.SchedulerTimeType.Stride

        /// The scheduler that delivers the delayed signals.
        public let scheduler: Context

        /// The options the signals are scheduled with.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delays `upstream`'s signals by `interval` on `scheduler`.
        @inlinable
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes `subscriber` to the upstream through a delaying subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: DelaySubscription(
                    downstream: subscriber,
                    interval: interval,
                    tolerance: tolerance,
                    scheduler: scheduler,
                    options: options
                )
            )
        }
    }
}

extension Publishers.Delay: Sendable
where Upstream: Sendable, Context: Sendable, Context.SchedulerTimeType.Stride: Sendable,
    Context.SchedulerOptions: Sendable {}

extension Publisher {
    /// Delays delivery of all elements and the completion by `interval`, on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: How long to delay each signal.
    ///   - tolerance: How much sooner or later a signal may be delivered; the scheduler's
    ///     `minimumTolerance` when `nil`.
    ///   - scheduler: The scheduler that delivers the signals.
    ///   - options: Options for the scheduled deliveries.
    @inlinable
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self,
            interval: interval,
            tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler,
            options: options)
    }
}
