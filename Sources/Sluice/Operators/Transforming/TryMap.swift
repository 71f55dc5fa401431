extension Publishers {
    /// A publisher that transforms every element from its upstream with a closure that can throw.
    ///
    /// When the closure throws, the upstream is cancelled and the error is the downstream's
    /// failure; nothing follows it. An upstream failure passes through as `any Error`. The
    /// closure runs where ``Publishers/Map``'s does: on ``isolation`` when it is set.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher this one transforms.
        public let upstream: Upstream

        /// The closure applied to each element; an error it throws ends the stream.
        public let transform: (Upstream.Output) throws -> Output

        /// The actor `transform` runs on; nil: on the upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher applying `transform` to each element of `upstream`, on
        /// `isolation` (the caller's actor by default).
        @inlinable
        public init(
            upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output,
            isolation: (any Actor)? = #isolation
        ) {
            self.upstream = upstream
            self.transform = transform
            self.isolation = isolation
        }

        /// Subscribes `subscriber` to the upstream through the transform.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = TryMapStep<Upstream.Output, Output, Upstream.Failure>(transform: transform)
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .passValues),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct TryMapStep<Input, Output, UpstreamFailure: Error>: OperatorStep {
    @usableFromInline typealias Failure = any Error
    @usableFromInline let transform: (Input) throws -> Output
    @usableFromInline let name: String
    @inlinable static var mirror: StepMirror { .empty }
    @inlinable init(name: String = "TryMap", transform: @escaping (Input) throws -> Output) {
        self.name = name
        self.transform = transform
    }
    @inlinable static var canEnd: Bool { true }
    @inlinable func receive(_ input: Input) -> StepResult<Output, any Error> {
        do { return .emit(try transform(input)) } catch { return .fail(error) }
    }
    @inlinable func mapFailure(_ failure: UpstreamFailure) -> any Error { failure }
}

extension Publishers.TryMap: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.TryMap {
    /// Fuses a transform into this `TryMap`, as Combine does.
    @inlinable
    public func map<T>(
        _ transform: @escaping (Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return .init(
            upstream: upstream,
            transform: { transform(try first($0)) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }

    /// Fuses a throwing transform into this `TryMap`, as Combine does.
    @inlinable
    public func tryMap<T>(
        _ transform: @escaping (Output) throws -> T, isolation: (any Actor)? = #isolation
    ) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return .init(
            upstream: upstream,
            transform: { try transform(try first($0)) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }
}

extension Publisher {
    /// Transforms every element with a closure that can throw; a thrown error cancels the
    /// upstream and fails the stream. `transform` runs where ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``
    /// says: on the caller's actor, if it has one.
    @inlinable
    public func tryMap<T>(
        _ transform: @escaping (Output) throws -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform, isolation: isolation)
    }
}
