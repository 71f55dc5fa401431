extension Publishers {
    /// A publisher that transforms every element from its upstream with a closure.
    ///
    /// Demand passes through one for one: the downstream's subscription is the upstream's
    /// own. The closure runs on whatever thread the upstream delivers from, as in Combine
    /// (a `sink` made on an actor still runs its own closure there).
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher this one transforms.
        public let upstream: Upstream

        /// The closure applied to each element.
        public let transform: (Upstream.Output) -> Output

        /// Creates a publisher applying `transform` to each element of `upstream`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` to the upstream through the transform.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: OperatorSubscriber(step: MapStep(transform: transform), downstream: subscriber))
        }
    }
}

@usableFromInline
struct MapStep<Input, Output, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline let transform: (Input) -> Output
    @inlinable init(transform: @escaping (Input) -> Output) { self.transform = transform }
    @inlinable var name: String { "Map" }
    @inlinable func receive(_ input: Input) -> StepResult<Output, Failure> { .emit(transform(input)) }
}

extension Publishers.Map {
    /// Fuses two transforms into one `Map`, as Combine does.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return .init(upstream: upstream) { transform(first($0)) }
    }

    /// Fuses this transform with a throwing one into one `TryMap`, as Combine does.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return .init(upstream: upstream) { try transform(first($0)) }
    }
}

extension Publisher {
    /// Transforms every element from the upstream publisher with `transform`.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }

    /// Replaces each `nil` element with `output`.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
