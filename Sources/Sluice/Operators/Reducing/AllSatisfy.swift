extension Publishers {
    /// A publisher that sends `false` as soon as an element fails a predicate (cancelling the
    /// upstream), or `true` when the upstream finishes with every element satisfying it.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one checks.
        public let upstream: Upstream

        /// The predicate every element must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher that tells whether every element of `upstream` satisfies `predicate`.
        @inlinable
        public init(
            upstream: Upstream,
            predicate: @escaping (Upstream.Output) -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = predicate
            let step: AccumulateStep<Upstream.Output, Bool, Failure, Failure> = searchStep(
                "AllSatisfy",
                found: false
            ) { !predicate($0) }
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }

    /// A publisher that sends whether every element satisfies a predicate that can throw; a
    /// thrown error cancels the upstream and fails the stream.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher whose elements this one checks.
        public let upstream: Upstream

        /// The predicate every element must satisfy; an error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher that tells whether every element of `upstream` satisfies `predicate`.
        @inlinable
        public init(
            upstream: Upstream,
            predicate: @escaping (Upstream.Output) throws -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = predicate
            let step = trySearchStep(
                "TryAllSatisfy",
                found: false,
                { try !predicate($0) },
                failure: Upstream.Failure.self
            )
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }
}

extension Publisher {
    /// Sends `false` as soon as an element fails `predicate`, or `true` when the upstream
    /// finishes with every element satisfying it.
    @inlinable
    public func allSatisfy(
        _ predicate: @escaping (Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate, isolation: isolation)
    }

    /// Sends whether every element satisfies a predicate that can throw; a thrown error
    /// cancels the upstream and fails the stream.
    @inlinable
    public func tryAllSatisfy(
        _ predicate: @escaping (Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate, isolation: isolation)
    }
}
