extension Publishers {
    /// How `collect(_:options:)` groups elements in time.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Collect the elements that arrive in each interval of the given stride, on the
        /// scheduler's clock, and send them as one array at the end of the interval.
        case byTime(Context, Context.SchedulerTimeType.Stride)

        /// As ``byTime(_:_:)``, but an array also goes out as soon as it holds the given
        /// count of elements (the interval's timer keeps its pace).
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that collects its upstream's elements into arrays, sent at the end of each
    /// interval of a scheduler's time (and, by count, as soon as one is full).
    ///
    /// Timing: a repeating timer starts at subscription, on the strategy's scheduler; at each tick the
    /// elements collected since the last array go out as one array. No empty array is ever sent. With
    /// ``TimeGroupingStrategy/byTimeOrCount(_:_:_:)`` an array that reaches the count is closed at once and
    /// sent by the scheduler right after; the timer keeps its pace from subscription (it does not restart).
    ///
    /// Delivery: every signal to the downstream (arrays and the completion) is sent from an action on the
    /// scheduler, one at a time, as Combine's does; so a `DispatchQueue` scheduler delivers on that queue.
    ///
    /// Demand counts arrays, and an array is never sent beyond it. At a tick without demand
    /// the array stays open and keeps collecting until a tick finds demand (or, by count, it
    /// fills up and waits for demand). Upstream demand: `byTime` asks for `.unlimited` at the
    /// downstream's first request (it collects whatever arrives); `byTimeOrCount` asks for
    /// `count` elements per array requested (`.unlimited` stays unlimited).
    ///
    /// Completion: `.finished` sends what was collected (arrays wait for demand), then
    /// `.finished`; a failure drops what was collected and is sent at once, by the scheduler.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one collects.
        public let upstream: Upstream

        /// The strategy with which elements are collected and sent.
        public let strategy: Publishers.TimeGroupingStrategy<Context>

        /// The scheduler options for every action the operator schedules.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that collects `upstream`'s elements by `strategy`.
        ///
        /// A negative count in ``TimeGroupingStrategy/byTimeOrCount(_:_:_:)`` traps at the
        /// first request, as in Combine (it scales the demand asked of the upstream); a count
        /// of 0 asks the upstream for nothing.
        public init(
            upstream: Upstream,
            strategy: Publishers.TimeGroupingStrategy<Context>,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Subscribes `subscriber`; its timer starts once it has its subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(CollectByTimeSubscription(downstream: subscriber, strategy: strategy, options: options))
        }
    }
}

extension Publisher {
    /// Collects elements into arrays sent on a schedule: at the end of each interval of `strategy`'s stride,
    /// on its scheduler, and with `.byTimeOrCount` also as soon as an array holds the count.
    ///
    /// Arrays are never empty, never sent beyond demand, and always sent from the scheduler.
    /// `.finished` sends the rest, then finishes; a failure drops the rest.
    ///
    /// <!-- snippet: CollectByTimeOrCount -->
    /// ```swift
    /// // Batches of at most 100 log lines, at least every second.
    /// let batches = lines.collect(.byTimeOrCount(queue, .seconds(1), 100))
    /// ```
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}
