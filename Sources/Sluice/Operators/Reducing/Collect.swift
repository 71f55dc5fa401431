extension Publishers {
    /// A publisher that sends every element of its upstream in one array when it finishes.
    ///
    /// It asks its upstream for `.unlimited` once its downstream asks for anything, and keeps
    /// every element until the end. An upstream failure is passed on instead of the array.
    public struct Collect<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one collects.
        public let upstream: Upstream

        /// Creates a publisher collecting the elements of `upstream`.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Subscribes `subscriber`; each subscription collects from an empty array.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = AccumulateStep<Upstream.Output, Output, Failure, Failure>(
                name: "Collect",
                result: []
            ) { collected, element in
                collected?.append(element)   // in place: the step owns the only copy
                return .more
            }
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber))
        }
    }

    /// A publisher that sends the number of elements of its upstream when it finishes.
    public struct Count<Upstream: Publisher>: Publisher {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one counts.
        public let upstream: Upstream

        /// Creates a publisher counting the elements of `upstream`.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Subscribes `subscriber`; each subscription counts from zero.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = AccumulateStep<Upstream.Output, Int, Failure, Failure>(name: "Count", result: 0) { count, _ in
                count? += 1
                return .more
            }
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Collects every element and sends them in one array when the upstream finishes.
    @inlinable
    public func collect() -> Publishers.Collect<Self> { Publishers.Collect(upstream: self) }

    /// Sends the number of elements when the upstream finishes.
    @inlinable
    public func count() -> Publishers.Count<Self> { Publishers.Count(upstream: self) }
}
