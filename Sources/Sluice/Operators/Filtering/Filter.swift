extension Publishers {
    /// A publisher that republishes only the elements that satisfy a predicate.
    ///
    /// For each element it drops, it asks its upstream for one more, so a downstream's
    /// limited demand is met by elements that pass (Combine's behaviour).
    public struct Filter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one filters.
        public let upstream: Upstream

        /// The predicate an element must satisfy to be republished.
        public let isIncluded: (Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher republishing the elements of `upstream` that satisfy `isIncluded`.
        @inlinable
        public init(
            upstream: Upstream,
            isIncluded: @escaping (Upstream.Output) -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes `subscriber` to the upstream through the predicate.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: OperatorSubscriber(
                    step: FilterStep<Output, Failure>(isIncluded: isIncluded),
                    downstream: subscriber
                ),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct FilterStep<Input, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline let isIncluded: (Input) -> Bool
    @inlinable init(isIncluded: @escaping (Input) -> Bool) { self.isIncluded = isIncluded }
    @inlinable var name: String { "Filter" }
    @inlinable static var mirror: StepMirror { .empty }
    @inlinable func receive(_ input: Input) -> StepResult<Input, Failure> { isIncluded(input) ? .emit(input) : .drop }
}

extension Publishers.Filter {
    /// Fuses two predicates into one `Filter`, as Combine does.
    @inlinable
    public func filter(
        _ isIncluded: @escaping (Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return .init(
            upstream: upstream,
            isIncluded: { first($0) && isIncluded($0) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }

    /// Fuses this predicate with a throwing one into one `TryFilter`, as Combine does.
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
    /// Republishes only the elements that satisfy `isIncluded`.
    @inlinable
    public func filter(
        _ isIncluded: @escaping (Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded, isolation: isolation)
    }
}

extension Publishers.Filter: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
