extension Publisher {
    /// Delivers the upstream's signals to the downstream on `scheduler`.
    ///
    /// Each value and the completion arrives in an action that `scheduler` runs, in the order the upstream
    /// sent them, one signal at a time even on a concurrent queue. A scheduler Sluice does not own (a test
    /// scheduler) gets one `schedule(options:_:)` call per signal, as in Combine; Sluice's own (dispatch
    /// queues, run loops, operation queues, the actor schedulers) get one action for what is queued, in runs
    /// of up to 1,024 signals, so that no signal allocates. The subscription reaches the downstream at once,
    /// on the thread that subscribes, as in Combine; on an actor-backed scheduler such as `.mainActor` it is
    /// scheduled too, so that it arrives on the actor. Requests and cancels go straight to the upstream, on
    /// the caller's thread (use ``subscribe(on:options:)`` to move those). Demand is kept end to end: the
    /// upstream is asked for exactly what the downstream asks for, so a limited demand stays limited across
    /// the hop. After a cancel nothing more is delivered, not even what was already scheduled.
    ///
    /// To update main-actor state, receive on the main actor's scheduler; the closure then runs
    /// there, and without a hop when the value is already on the main actor:
    ///
    /// <!-- snippet: ReceiveOnMainActor -->
    /// ```swift
    /// // In a @MainActor model; `queries` may send from any thread.
    /// cancellable = queries
    ///     .receive(on: .mainActor)
    ///     .sink { [weak self] in self?.results = search($0) }
    /// ```
    @inlinable
    public func receive<S: Scheduler>(
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers its upstream's signals on a scheduler: see
    /// ``Publisher/receive(on:options:)``.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose signals are moved.
        public let upstream: Upstream

        /// The scheduler the downstream receives its signals on.
        public let scheduler: Context

        /// The options each scheduled delivery is made with.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers `upstream`'s signals on `scheduler`.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReceiveOnSubscription(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}
