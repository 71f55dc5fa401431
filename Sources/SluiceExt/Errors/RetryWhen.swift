import Sluice

extension Publishers {
    /// A publisher that resubscribes to its upstream after a failure when a trigger publisher says so
    /// (CombineExt's `RetryWhen`, Rx's `retryWhen`).
    ///
    /// - Per subscriber, `errorTrigger` is called once, at subscription, with a publisher of the upstream's
    ///   failures; what it returns is the trigger, subscribed (with `.unlimited` demand) before the upstream.
    /// - Each upstream failure goes into that publisher instead of downstream. Each value the trigger sends
    ///   after a failure resubscribes the upstream, once; trigger values while the upstream runs are ignored.
    /// - Ending: the upstream finishing finishes the stream. The trigger finishing finishes it too, at once,
    ///   even while a resubscribed upstream runs (so `prefix(1)` on the failures retries nothing). The trigger
    ///   failing fails the stream with its error when that error is a `Failure`, and finishes it otherwise
    ///   (CombineExt then leaves the stream open for ever). The end cancels the other side.
    /// - Demand: the downstream's unmet demand is requested from each new upstream subscription.
    /// - Threads: the upstream and the trigger may signal on different threads; no lock is held while either,
    ///   the downstream or the failures' subscribers are called. A retry that fails synchronously again does
    ///   not nest: the thread running the retries loops instead, so the stack stays bounded.
    /// - Cancel: cancels the upstream and the trigger and lets go of everything the subscription holds.
    public struct RetryWhen<Upstream: Publisher, RetryTrigger: Publisher, Output, Failure>: Publisher
    where Upstream.Output == Output, Upstream.Failure == Failure {
        /// Makes the trigger from the publisher of the upstream's failures.
        public typealias ErrorTrigger = (AnyPublisher<Upstream.Failure, Never>) -> RetryTrigger

        /// The publisher retried.
        public let upstream: Upstream
        /// Makes the trigger, once per subscriber.
        public let errorTrigger: ErrorTrigger

        /// Creates the publisher; prefer `retryWhen(_:)`.
        public init(upstream: Upstream, errorTrigger: @escaping ErrorTrigger) {
            self.upstream = upstream
            self.errorTrigger = errorTrigger
        }

        /// Builds the trigger, gives the downstream its subscription, then subscribes the trigger and the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let failures = PassthroughSubject<Failure, Never>()
            let trigger = errorTrigger(failures.eraseToAnyPublisher())
            let subscription = RetryWhenSubscription<Upstream, RetryTrigger.Output, RetryTrigger.Failure, S>(
                upstream: upstream, failures: failures, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            trigger.subscribe(RetryWhenSubscription.TriggerSide(parent: subscription))
            subscription.start()
        }
    }
}

extension Publisher {
    /// Retries this publisher after a failure each time the trigger built by `errorTrigger` sends a value; see
    /// `Publishers.RetryWhen` for ending, demand and threads.
    ///
    /// <!-- snippet: RetryWhenTwice -->
    /// ```swift
    /// var attempts = 0
    /// let flaky = Deferred {
    ///     attempts += 1
    ///     return attempts < 3 ? Fail<Int, Oops>(error: Oops()).eraseToAnyPublisher()
    ///                         : Just(42).setFailureType(to: Oops.self).eraseToAnyPublisher()
    /// }
    /// let recorder = RecordingSubscriber<Int, Oops>()
    /// flaky.retryWhen { failures in failures.map { _ in () } }.subscribe(recorder)
    /// #expect(attempts == 3)
    /// #expect(recorder.values == [42])
    /// ```
    public func retryWhen<RetryTrigger: Publisher>(
        _ errorTrigger: @escaping (AnyPublisher<Failure, Never>) -> RetryTrigger
    ) -> Publishers.RetryWhen<Self, RetryTrigger, Output, Failure> {
        Publishers.RetryWhen(upstream: self, errorTrigger: errorTrigger)
    }
}
