extension Publishers {
    /// A publisher that transforms every element from its upstream with a closure.
    ///
    /// Demand passes through one for one: the downstream's subscription is the upstream's
    /// own (or, on an actor, its hop's).
    ///
    /// Where the closure runs: made in actor-isolated code (``isolation``, the caller's actor by default), on
    /// that actor, as a `sink` does: at once when a value arrives already on the main actor for a main-actor
    /// map, otherwise in order after one hop to the actor, which keeps the downstream's demand (see
    /// ``Publisher/receive(on:options:)``); the downstream is then called there too. Made outside any actor,
    /// on whatever thread the upstream delivers from, as in Combine.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher this one transforms.
        public let upstream: Upstream

        /// The closure applied to each element.
        public let transform: (Upstream.Output) -> Output

        /// The actor `transform` runs on; nil: on the upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher applying `transform` to each element of `upstream`, on
        /// `isolation` (the caller's actor by default).
        @inlinable
        public init(
            upstream: Upstream, transform: @escaping (Upstream.Output) -> Output, isolation: (any Actor)? = #isolation
        ) {
            self.upstream = upstream
            self.transform = transform
            self.isolation = isolation
        }

        /// Subscribes `subscriber` to the upstream through the transform (and, on an actor,
        /// through the hop to it).
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: OperatorSubscriber(step: MapStep(transform: transform), downstream: subscriber),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct MapStep<Input, Output, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline let transform: (Input) -> Output
    @inlinable init(transform: @escaping (Input) -> Output) { self.transform = transform }
    @inlinable var name: String { "Map" }
    @inlinable static var mirror: StepMirror { .empty }
    @inlinable func receive(_ input: Input) -> StepResult<Output, Failure> { .emit(transform(input)) }
}

extension Publishers.Map: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.Map {
    /// Fuses two transforms into one `Map`, as Combine does; the fused closure runs on the
    /// actor of either (see `fusedIsolation(_:_:)`).
    @inlinable
    public func map<T>(
        _ transform: @escaping (Output) -> T, isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return .init(
            upstream: upstream,
            transform: { transform(first($0)) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }

    /// Fuses this transform with a throwing one into one `TryMap`, as Combine does.
    @inlinable
    public func tryMap<T>(
        _ transform: @escaping (Output) throws -> T, isolation: (any Actor)? = #isolation
    ) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return .init(
            upstream: upstream,
            transform: { try transform(first($0)) },
            isolation: fusedIsolation(self.isolation, isolation)
        )
    }
}

extension Publisher {
    /// Transforms every element from the upstream publisher with `transform`.
    ///
    /// Called from actor-isolated code, `transform` runs on that actor (`isolation` is the caller's, filled
    /// in by the compiler), so it can touch the actor's state safely: at once when a value arrives already on
    /// the main actor, otherwise in order after one hop to the actor (see ``Publishers/Map``). Called outside
    /// any actor, it runs on whatever thread the upstream delivers from, as in Combine.
    @inlinable
    public func map<T>(
        _ transform: @escaping (Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform, isolation: isolation)
    }

    /// Replaces each `nil` element with `output`.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self, transform: { $0 ?? output }, isolation: nil)
    }
}
