extension Publishers {
    /// A publisher that converts its upstream's failure with a closure; elements pass through.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output

        /// The publisher whose failure this one converts.
        public let upstream: Upstream

        /// The closure that converts the upstream's failure.
        public let transform: (Upstream.Failure) -> Failure

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher converting the failure of `upstream` with `transform`.
        @inlinable
        public init(
            upstream: Upstream,
            _ map: @escaping (Upstream.Failure) -> Failure,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.transform = map
        }

        /// Creates a publisher converting the failure of `upstream` with `transform`.
        @inlinable
        public init(
            upstream: Upstream,
            transform: @escaping (Upstream.Failure) -> Failure,
            isolation: (any Actor)? = #isolation
        ) {
            self.init(upstream: upstream, transform, isolation: isolation)
        }

        /// Subscribes `subscriber` to the upstream, converting its failure.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: OperatorSubscriber(step: MapErrorStep(transform: transform), downstream: subscriber),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct MapErrorStep<Input, UpstreamFailure: Error, Failure: Error>: OperatorStep {
    @usableFromInline let transform: (UpstreamFailure) -> Failure
    @inlinable init(transform: @escaping (UpstreamFailure) -> Failure) { self.transform = transform }
    @inlinable var name: String { "MapError" }
    @inlinable static var mirror: StepMirror { .empty }
    @inlinable func receive(_ input: Input) -> StepResult<Input, Failure> { .emit(input) }
    @inlinable func mapFailure(_ failure: UpstreamFailure) -> Failure { transform(failure) }
}

extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    @inlinable
    public func mapError<E: Error>(
        _ transform: @escaping (Failure) -> E,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform, isolation: isolation)
    }
}

extension Publishers.MapError: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
