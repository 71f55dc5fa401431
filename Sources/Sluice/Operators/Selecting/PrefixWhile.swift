extension Publishers {
    /// A publisher that republishes elements while a predicate holds, and finishes (cancelling
    /// the upstream) at the first that fails it.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one republishes the prefix of.
        public let upstream: Upstream

        /// Elements are republished while this holds.
        public let predicate: (Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher republishing the leading elements of `upstream` that satisfy `predicate`.
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
            let step = WhileStep<Output, Failure, Failure>(
                dropping: false,
                name: "PrefixWhile"
            ) { .success(predicate($0)) }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .trap),
                isolation: isolation
            )
        }
    }

    /// A publisher that republishes elements while a predicate that can throw holds; a thrown
    /// error cancels the upstream and fails the stream.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher this one republishes the prefix of.
        public let upstream: Upstream

        /// Elements are republished while this holds; an error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher republishing the leading elements of `upstream` that satisfy `predicate`.
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
            let step = WhileStep<Output, Upstream.Failure, any Error>(
                dropping: false,
                name: "TryPrefixWhile"
            ) { element in
                Result { try predicate(element) }
            }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .trap),
                isolation: isolation
            )
        }
    }
}

extension Publisher {
    /// Republishes elements while `predicate` holds, and finishes at the first that fails it.
    @inlinable
    public func prefix(
        while predicate: @escaping (Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate, isolation: isolation)
    }

    /// Republishes elements while a predicate that can throw holds; a thrown error cancels the
    /// upstream and fails the stream.
    @inlinable
    public func tryPrefix(
        while predicate: @escaping (Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate, isolation: isolation)
    }
}

extension Publishers.PrefixWhile: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.TryPrefixWhile: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
