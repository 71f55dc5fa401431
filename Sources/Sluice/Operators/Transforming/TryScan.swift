extension Publishers {
    /// A publisher that republishes each partial result of accumulating its upstream's
    /// elements with a closure that can throw.
    ///
    /// When the closure throws, the upstream is cancelled and the error is the downstream's failure.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher whose elements this one accumulates.
        public let upstream: Upstream

        /// The result the first element is combined with.
        public let initialResult: Output

        /// Combines the last partial result with the next element; an error ends the stream.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher accumulating the elements of `upstream` from `initialResult`.
        @inlinable
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber` to the upstream; each subscription starts from `initialResult`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = TryScanStep<Upstream.Output, Output, Upstream.Failure>(
                result: initialResult,
                next: nextPartialResult
            )
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .passValues),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct TryScanStep<Input, Output, UpstreamFailure: Error>: OperatorStep {
    @usableFromInline typealias Failure = any Error
    @usableFromInline var result: Output
    @usableFromInline let next: (Output, Input) throws -> Output
    @inlinable init(result: Output, next: @escaping (Output, Input) throws -> Output) {
        self.result = result
        self.next = next
    }
    @inlinable static var canEnd: Bool { true }
    @inlinable var name: String { "TryScan" }
    @inlinable mutating func receive(_ input: Input) -> StepResult<Output, any Error> {
        do {
            result = try next(result, input)
            return .emit(result)
        } catch {
            return .fail(error)
        }
    }
    @inlinable func mapFailure(_ failure: UpstreamFailure) -> any Error { failure }
}

extension Publisher {
    /// Republishes each partial result of accumulating the elements with a closure that can
    /// throw; a thrown error cancels the upstream and fails the stream.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(
            upstream: self,
            initialResult: initialResult,
            nextPartialResult: nextPartialResult,
            isolation: isolation
        )
    }
}

extension Publishers.TryScan: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
