extension Publishers {
    /// A publisher that ends if its upstream goes longer than an interval without an element.
    ///
    /// The wait starts at the subscription (again at the first request, as in Combine) and starts over at
    /// every element; each start cancels the previous timer and schedules a repeating one, `interval` from
    /// `now`, as Combine's does. If `interval` passes first, the upstream is cancelled and the subscriber
    /// gets the failure `customError()` returns, or `.finished` without `customError`; elements still on
    /// their way to the scheduler are dropped. Elements and the upstream's completion are delivered on the
    /// scheduler, at its next turn, in order. Demand passes to the upstream as requested (`.none` too), and
    /// the demand the subscriber returns from `receive(_:)` goes to the upstream as each element is
    /// delivered. A cancel before the upstream's subscription has come is ignored, as in Combine.
    ///
    /// The scheduler must run actions later: a timer that runs inside the call that
    /// schedules it (an immediate scheduler) traps, where Combine's `timeout` crashes too.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one watches.
        public let upstream: Upstream

        /// The longest the upstream may go without an element.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler that keeps the time and delivers the signals.
        public let scheduler: Context

        /// The options the deliveries and the timer are scheduled with.
        public let options: Context.SchedulerOptions?

        /// Makes the failure sent when the time is up; `nil` to finish instead. Called once,
        /// on the scheduler.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a publisher that ends if `upstream` goes `interval` without an element.
        @inlinable
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Subscribes `subscriber` to the upstream through a timeout subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: TimeoutSubscription(
                    downstream: subscriber,
                    interval: interval,
                    scheduler: scheduler,
                    options: options,
                    customError: customError
                )
            )
        }
    }
}

extension Publisher {
    /// Ends the stream if the upstream goes longer than `interval` without an element:
    /// with the failure `customError` returns, or `.finished` without it.
    ///
    /// - Parameters:
    ///   - interval: The longest the upstream may go without an element.
    ///   - scheduler: The scheduler that keeps the time and delivers the signals.
    ///   - options: Options for the scheduled deliveries and the timer.
    ///   - customError: Makes the failure to end with; `nil` to finish.
    @inlinable
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self,
            interval: interval,
            scheduler: scheduler,
            options: options,
            customError: customError
        )
    }
}
