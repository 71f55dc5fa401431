extension Publishers {
    /// A publisher that publishes an element only after a given time has passed without another one.
    ///
    /// Each element replaces the one waiting and restarts the wait; the element still waiting once `dueTime`
    /// has passed with no newer one is delivered on the scheduler. The upstream is asked for `.unlimited`
    /// (the last of a burst is known only once the burst is over), and an element that comes due while the
    /// subscriber has no demand is dropped. The completion and a failure are delivered on the scheduler at
    /// its next turn, and drop the element still waiting, as Combine's do. Signals are serial whatever thread
    /// the upstream and the scheduler use.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one debounces.
        public let upstream: Upstream

        /// How long the publisher waits for quiet before it delivers an element.
        public let dueTime: Context.SchedulerTimeType.Stride

        /// The scheduler that delivers the elements.
        public let scheduler: Context

        /// The options the deliveries are scheduled with.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers `upstream`'s element after `dueTime` of quiet.
        @inlinable
        public init(
            upstream: Upstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes `subscriber` to the upstream through a debouncing subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            guard scheduler is any OwnScheduler else {
                return upstream.receive(
                    subscriber: ForeignDebounceSubscription(
                        downstream: subscriber,
                        dueTime: dueTime,
                        scheduler: scheduler,
                        options: options
                    )
                )
            }
            let logic = DebounceState<Output, Failure, Context.SchedulerTimeType>(dueTime: dueTime)
            upstream.receive(
                subscriber: TimedSubscription(
                    downstream: subscriber,
                    logic: logic,
                    scheduler: scheduler,
                    tolerance: nil,
                    options: options
                )
            )
        }
    }
}

extension Publishers.Debounce: Sendable
where Upstream: Sendable, Context: Sendable, Context.SchedulerTimeType.Stride: Sendable,
    Context.SchedulerOptions: Sendable {}

extension Publisher {
    /// Publishes an element only after `dueTime` has passed without a newer one.
    ///
    /// - Parameters:
    ///   - dueTime: How long to wait for quiet.
    ///   - scheduler: The scheduler that delivers the elements and the completion.
    ///   - options: Options for the scheduled deliveries.
    @inlinable
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}
