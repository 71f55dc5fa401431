extension Publishers {
    /// A publisher that subscribes to its upstream again each time it fails, up to a number of times.
    ///
    /// Each new subscription is asked at once for the demand the downstream still has outstanding; the
    /// downstream keeps the one subscription it was given, and sees the elements of every attempt but only
    /// the last attempt's completion. A cancel reaches the current attempt. An upstream that fails inside
    /// `subscribe` (a `Fail`, a `Deferred` one) is subscribed again in a loop, not recursively, so even
    /// `retries: nil` over a publisher that fails at once many times keeps the stack flat. `request(_:)`
    /// passes any demand on, `.none` included, as Combine's does; the demand the downstream returns for a
    /// value is requested from the current attempt rather than returned to it, as Combine's does. An attempt
    /// that sends a value the downstream has not asked for (or the first one, a value before its
    /// subscription) traps (rules 2 and 1), as Combine's does; a later attempt's value before its
    /// subscription reaches a downstream that has demand for it. A completion an attempt sends before its
    /// subscription is that attempt's, as in Combine: a failure retries, a finish passes on.
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to, and again after each failure.
        public let upstream: Upstream

        /// How many times to subscribe again after a failure; `nil` for no limit. A negative
        /// count also sets no limit, as in Combine.
        public let retries: Int?

        /// Creates a publisher that subscribes to `upstream` again after a failure, `retries`
        /// times at most (`nil`: without limit).
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Subscribes `subscriber`; each subscription counts its own attempts.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UpstreamRelay(
                name: "Retry",
                downstream: subscriber,
                trapsOnZeroDemand: false,
                checks: .everyValue
            )
            Self.attempt(upstream, through: relay, retriesLeft: retries.flatMap { $0 < 0 ? nil : $0 })
        }

        /// Subscribes the relay to `upstream`; on a failure, does so again while retries are left.
        private static func attempt<S: Subscriber>(
            _ upstream: Upstream, through relay: UpstreamRelay<S>, retriesLeft: Int?
        ) where S.Input == Output, S.Failure == Failure {
            relay.subscribe(upstream) { completion in
                guard case .failure = completion, retriesLeft != 0 else { return relay.complete(completion) }
                attempt(upstream, through: relay, retriesLeft: retriesLeft.map { $0 - 1 })
            }
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Subscribes to the upstream again when it fails, up to `retries` times; the failure
    /// passes on when none are left.
    ///
    /// Each attempt is a new subscription, so a cold publisher repeats its elements from the
    /// start, and the downstream sees them again.
    ///
    /// <!-- snippet: RetryAttempts -->
    /// ```swift
    /// let page = fetchPage(1).retry(3)   // at most four attempts
    /// ```
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}
