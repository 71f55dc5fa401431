extension Publishers {
    /// A publisher that republishes the non-`nil` results of a closure applied to each element.
    ///
    /// For each `nil` it drops, it asks its upstream for one more element, as `filter` does.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher this one transforms.
        public let upstream: Upstream

        /// The closure applied to each element; `nil` drops the element.
        public let transform: (Upstream.Output) -> Output?

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher republishing the non-`nil` results of `transform`.
        @inlinable
        public init(
            upstream: Upstream,
            transform: @escaping (Upstream.Output) -> Output?,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` to the upstream through the transform.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: OperatorSubscriber(step: CompactMapStep(transform: transform), downstream: subscriber),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct CompactMapStep<Input, Output, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline let transform: (Input) -> Output?
    @inlinable init(transform: @escaping (Input) -> Output?) { self.transform = transform }
    @inlinable var name: String { "CompactMap" }
    @inlinable static var mirror: StepMirror { .empty }
    @inlinable func receive(_ input: Input) -> StepResult<Output, Failure> {
        transform(input).map { .emit($0) } ?? .drop
    }
}

extension Publishers.CompactMap {
    /// Fuses a second optional transform into one `CompactMap`, as Combine does.
    @inlinable
    public func compactMap<T>(
        _ transform: @escaping (Output) -> T?,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return .init(
            upstream: upstream,
            transform: { first($0).flatMap(transform) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }

    /// Fuses a transform into one `CompactMap`, as Combine does.
    @inlinable
    public func map<T>(
        _ transform: @escaping (Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return .init(
            upstream: upstream,
            transform: { first($0).map(transform) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }
}

extension Publisher {
    /// Republishes the non-`nil` results of `transform` applied to each element.
    @inlinable
    public func compactMap<T>(
        _ transform: @escaping (Output) -> T?,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform, isolation: isolation)
    }
}

extension Publishers.CompactMap: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
