extension Publishers {
    /// A publisher that sends its upstream's last element when the upstream finishes; with no
    /// element, it only finishes.
    public struct Last<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose last element this one sends.
        public let upstream: Upstream

        /// Creates a publisher sending the last element of `upstream`.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step: AccumulateStep<Output, Output, Failure, Failure> = selectStep("Last", last: true) { _ in true }
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber))
        }
    }

    /// A publisher that sends the last element satisfying a predicate when its upstream
    /// finishes; with none, it only finishes.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one searches.
        public let upstream: Upstream

        /// The predicate the element sent must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher sending the last element of `upstream` that satisfies `predicate`.
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
            let step: AccumulateStep<Output, Output, Failure, Failure> = selectStep("LastWhere", last: true, predicate)
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }

    /// A publisher that sends the last element satisfying a predicate that can throw; a thrown
    /// error cancels the upstream and fails the stream.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher this one searches.
        public let upstream: Upstream

        /// The predicate the element sent must satisfy; an error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher sending the last element of `upstream` that satisfies `predicate`.
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
            let step = trySelectStep("TryLastWhere", last: true, predicate, failure: Upstream.Failure.self)
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }
}

extension Publisher {
    /// Sends the last element when the upstream finishes.
    @inlinable
    public func last() -> Publishers.Last<Self> { Publishers.Last(upstream: self) }

    /// Sends the last element that satisfies `predicate` when the upstream finishes.
    @inlinable
    public func last(
        where predicate: @escaping (Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate, isolation: isolation)
    }

    /// Sends the last element that satisfies a predicate that can throw; a thrown error
    /// cancels the upstream and fails the stream.
    @inlinable
    public func tryLast(
        where predicate: @escaping (Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate, isolation: isolation)
    }
}
