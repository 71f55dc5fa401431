extension Publishers {
    /// A publisher that omits elements while a predicate holds, then republishes every element
    /// from the first that fails it.
    ///
    /// Each omitted element is replaced by one more requested upstream.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one omits elements of.
        public let upstream: Upstream

        /// Elements are omitted while this holds.
        public let predicate: (Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher omitting the leading elements of `upstream` that satisfy `predicate`.
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
                dropping: true,
                name: "DropWhile"
            ) { .success(predicate($0)) }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(
                    step: step,
                    downstream: subscriber,
                    early: .ignore,
                    mirror: .empty
                ),
                isolation: isolation
            )
        }
    }

    /// A publisher that omits elements while a predicate that can throw holds; a thrown error
    /// cancels the upstream and fails the stream.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher this one omits elements of.
        public let upstream: Upstream

        /// Elements are omitted while this holds; an error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher omitting the leading elements of `upstream` that satisfy `predicate`.
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
            let step = WhileStep<Output, Upstream.Failure, any Error>(dropping: true, name: "TryDropWhile") { element in
                Result { try predicate(element) }
            }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(
                    step: step,
                    downstream: subscriber,
                    early: .ignore,
                    mirror: .empty
                ),
                isolation: isolation
            )
        }
    }
}

extension Publisher {
    /// Omits elements while `predicate` holds, then republishes every element from the first that fails it.
    @inlinable
    public func drop(
        while predicate: @escaping (Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate, isolation: isolation)
    }

    /// Omits elements while a predicate that can throw holds; a thrown error cancels the
    /// upstream and fails the stream.
    @inlinable
    public func tryDrop(
        while predicate: @escaping (Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate, isolation: isolation)
    }
}

extension Publishers.DropWhile: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.TryDropWhile: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
