extension Publishers {
    /// A publisher that republishes the elements that satisfy a predicate that can throw.
    ///
    /// A dropped element is replaced by one more requested upstream. When the predicate
    /// throws, the upstream is cancelled and the error is the downstream's failure.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher this one filters.
        public let upstream: Upstream

        /// The predicate an element must satisfy; an error it throws ends the stream.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher republishing the elements of `upstream` that satisfy `isIncluded`.
        @inlinable
        public init(
            upstream: Upstream,
            isIncluded: @escaping (Upstream.Output) throws -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes `subscriber` to the upstream through the predicate.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = TryFilterStep<Output, Upstream.Failure>(isIncluded: isIncluded)
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .trap),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct TryFilterStep<Input, UpstreamFailure: Error>: OperatorStep {
    @usableFromInline typealias Failure = any Error
    @usableFromInline let isIncluded: (Input) throws -> Bool
    @inlinable init(isIncluded: @escaping (Input) throws -> Bool) { self.isIncluded = isIncluded }
    @inlinable static var canEnd: Bool { true }
    @inlinable var name: String { "TryFilter" }
    @inlinable func receive(_ input: Input) -> StepResult<Input, any Error> {
        do { return try isIncluded(input) ? .emit(input) : .drop } catch { return .fail(error) }
    }
    @inlinable func mapFailure(_ failure: UpstreamFailure) -> any Error { failure }
}

extension Publishers.TryFilter {
    /// Fuses a predicate into this `TryFilter`, as Combine does.
    @inlinable
    public func filter(
        _ isIncluded: @escaping (Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return .init(
            upstream: upstream,
            isIncluded: { try first($0) && isIncluded($0) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }

    /// Fuses a throwing predicate into this `TryFilter`, as Combine does.
    @inlinable
    public func tryFilter(
        _ isIncluded: @escaping (Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return .init(
            upstream: upstream,
            isIncluded: { try first($0) && isIncluded($0) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }
}

extension Publisher {
    /// Republishes the elements that satisfy a predicate that can throw; a thrown error cancels
    /// the upstream and fails the stream.
    @inlinable
    public func tryFilter(
        _ isIncluded: @escaping (Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded, isolation: isolation)
    }
}

extension Publishers.TryFilter: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
