extension Publishers {
    /// A publisher that sends `true` and finishes as soon as its upstream sends a given
    /// element (cancelling the upstream), or `false` when the upstream finishes without it.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one searches.
        public let upstream: Upstream

        /// The element searched for.
        public let output: Upstream.Output

        /// Creates a publisher that tells whether `upstream` sends `output`.
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let wanted = output
            upstream.receive(
                subscriber: ReducingSubscription(step: searchStep("Contains") { $0 == wanted }, downstream: subscriber)
            )
        }
    }

    /// A publisher that sends `true` as soon as an element satisfies a predicate (cancelling
    /// the upstream), or `false` when the upstream finishes without one.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one searches.
        public let upstream: Upstream

        /// The predicate an element must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher that tells whether an element of `upstream` satisfies `predicate`.
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
            upstream.receive(
                subscriber: ReducingSubscription(step: searchStep("ContainsWhere", predicate), downstream: subscriber),
                isolation: isolation
            )
        }
    }

    /// A publisher that sends `true` as soon as an element satisfies a predicate that can
    /// throw; a thrown error cancels the upstream and fails the stream.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher whose elements this one searches.
        public let upstream: Upstream

        /// The predicate an element must satisfy; an error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher that tells whether an element of `upstream` satisfies `predicate`.
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
            let step = trySearchStep("TryContainsWhere", predicate, failure: Upstream.Failure.self)
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }
}

/// The step of `contains` and `allSatisfy`: `found` is sent (early) for the first element that
/// `matches`, `!found` if the upstream finishes first.
@inlinable
func searchStep<Input, Failure: Error>(
    _ name: String, found: Bool = true, _ matches: @escaping (Input) -> Bool
) -> AccumulateStep<Input, Bool, Failure, Failure> {
    AccumulateStep(name: name, result: !found) { _, element in matches(element) ? .done(found) : .more }
}

/// ``searchStep(_:found:_:)`` for a predicate that can throw.
@inlinable
func trySearchStep<Input, UpstreamFailure: Error>(
    _ name: String, found: Bool = true, _ matches: @escaping (Input) throws -> Bool, failure: UpstreamFailure.Type
) -> AccumulateStep<Input, Bool, UpstreamFailure, any Error> {
    AccumulateStep(name: name, result: !found, mapFailure: { $0 }) { _, element in
        do { return try matches(element) ? .done(found) : .more } catch { return .fail(error) }
    }
}

extension Publisher where Output: Equatable {
    /// Sends `true` as soon as the upstream sends `output`, or `false` when it finishes without it.
    @inlinable
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publisher {
    /// Sends `true` as soon as an element satisfies `predicate`, or `false` when the upstream
    /// finishes without one.
    @inlinable
    public func contains(
        where predicate: @escaping (Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate, isolation: isolation)
    }

    /// Sends `true` as soon as an element satisfies a predicate that can throw; a thrown error
    /// cancels the upstream and fails the stream.
    @inlinable
    public func tryContains(
        where predicate: @escaping (Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate, isolation: isolation)
    }
}
