extension Publishers {
    /// A publisher that sends its upstream's elements in arrays of `count`, and the rest, if
    /// any, in a shorter array when the upstream finishes.
    ///
    /// Demand counts arrays: the downstream's demand of `n` asks the upstream for `n * count`
    /// elements (`.unlimited` when that overflows). On a failure, the elements collected
    /// since the last array are dropped and the failure is passed on. `count` should be at
    /// least 1. `request(.none)` traps (rule 2), as Combine's does.
    ///
    /// As Combine's, it hands its subscriber the subscription when the upstream's comes; a value before that
    /// is ignored, a request or a cancel before it too (the subscription that comes later is taken), and the
    /// upstream's completion is passed on, also before the subscription. The subscriber is let go of at its
    /// completion and at cancel (rule 4): nothing reaches it after either.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one collects.
        public let upstream: Upstream

        /// The number of elements in each array but the last.
        public let count: Int

        /// Creates a publisher collecting the elements of `upstream` in arrays of `count`.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes `subscriber` when the upstream's subscription comes; each subscription
        /// collects from an empty array.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(CollectByCountSubscription<S, Upstream.Output>(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects elements in arrays of `count` and sends each when full; the rest, if any,
    /// goes in a shorter array when the upstream finishes.
    ///
    /// A downstream demand of `n` arrays asks the upstream for `n * count` elements. A
    /// failure drops the elements not yet sent.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}
