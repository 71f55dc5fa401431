extension Publisher {
    /// Subscribes to the upstream, and passes the downstream's requests and cancel to it, on `scheduler`.
    ///
    /// Use it when subscribing or requesting does work that must not run on the caller's thread (a publisher
    /// that produces its values synchronously inside `request(_:)` then produces them on `scheduler`). The
    /// upstream's signals are not moved: they reach the downstream on whatever thread the upstream sends them
    /// from (use ``receive(on:options:)`` for that). Requests made before the scheduler has run are added up
    /// and passed on together; a cancel stops the values at once, and reaches the upstream on the scheduler.
    ///
    /// <!-- snippet: SubscribeOnGlobalQueue -->
    /// ```swift
    /// // In a @MainActor model: the rows are made on a global queue and appended on the main actor.
    /// cancellable = expensiveRows.publisher
    ///     .subscribe(on: DispatchQueue.global())
    ///     .receive(on: .mainActor)
    ///     .sink { [weak self] in self?.rows.append($0) }
    /// ```
    @inlinable
    public func subscribe<S: Scheduler>(
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that subscribes to its upstream, and passes requests and cancel to it, on a
    /// scheduler: see ``Publisher/subscribe(on:options:)``.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to on the scheduler.
        public let upstream: Upstream

        /// The scheduler that subscribes, requests and cancels.
        public let scheduler: Context

        /// The options each scheduled action is made with.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that subscribes to `upstream` on `scheduler`.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules the subscription to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            SubscribeOnSubscription(upstream: upstream, downstream: subscriber, scheduler: scheduler, options: options)
                .start()
        }
    }
}
