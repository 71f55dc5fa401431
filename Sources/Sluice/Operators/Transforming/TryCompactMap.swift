extension Publishers {
    /// A publisher that republishes the non-`nil` results of a closure that can throw.
    ///
    /// A `nil` is replaced by one more element requested upstream. When the closure throws,
    /// the upstream is cancelled and the error is the downstream's failure.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher this one transforms.
        public let upstream: Upstream

        /// The closure applied to each element; `nil` drops it, an error ends the stream.
        public let transform: (Upstream.Output) throws -> Output?

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher republishing the non-`nil` results of `transform`.
        @inlinable
        public init(
            upstream: Upstream,
            transform: @escaping (Upstream.Output) throws -> Output?,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` to the upstream through the transform.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = TryCompactMapStep<Upstream.Output, Output, Upstream.Failure>(transform: transform)
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .trap),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct TryCompactMapStep<Input, Output, UpstreamFailure: Error>: OperatorStep {
    @usableFromInline typealias Failure = any Error
    @usableFromInline let transform: (Input) throws -> Output?
    @inlinable init(transform: @escaping (Input) throws -> Output?) { self.transform = transform }
    @inlinable static var canEnd: Bool { true }
    @inlinable var name: String { "TryCompactMap" }
    @inlinable func receive(_ input: Input) -> StepResult<Output, any Error> {
        do { return try transform(input).map { .emit($0) } ?? .drop } catch { return .fail(error) }
    }
    @inlinable func mapFailure(_ failure: UpstreamFailure) -> any Error { failure }
}

extension Publishers.TryCompactMap {
    /// Fuses a second optional transform into this `TryCompactMap`, as Combine does.
    @inlinable
    public func compactMap<T>(
        _ transform: @escaping (Output) throws -> T?,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return .init(
            upstream: upstream,
            transform: { try first($0).flatMap(transform) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }
}

extension Publisher {
    /// Republishes the non-`nil` results of a closure that can throw; a thrown error cancels
    /// the upstream and fails the stream.
    @inlinable
    public func tryCompactMap<T>(
        _ transform: @escaping (Output) throws -> T?,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform, isolation: isolation)
    }
}

extension Publishers.TryCompactMap: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
