extension Publishers {
    /// A publisher that republishes each partial result of accumulating its upstream's
    /// elements with a closure, starting from an initial result.
    ///
    /// One element in, one partial result out: demand passes through one for one.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one accumulates.
        public let upstream: Upstream

        /// The result the first element is combined with.
        public let initialResult: Output

        /// Combines the last partial result with the next element.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher accumulating the elements of `upstream` from `initialResult`.
        @inlinable
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output,
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
            let step = ScanStep<Upstream.Output, Output, Failure>(result: initialResult, next: nextPartialResult)
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber), isolation: isolation)
        }
    }
}

@usableFromInline
struct ScanStep<Input, Output, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline var result: Output
    @usableFromInline let next: (Output, Input) -> Output
    @inlinable init(result: Output, next: @escaping (Output, Input) -> Output) {
        self.result = result
        self.next = next
    }
    @inlinable var name: String { "Scan" }
    @inlinable mutating func receive(_ input: Input) -> StepResult<Output, Failure> {
        result = next(result, input)
        return .emit(result)
    }
}

extension Publisher {
    /// Republishes each partial result of accumulating the elements with `nextPartialResult`.
    @inlinable
    public func scan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(
            upstream: self,
            initialResult: initialResult,
            nextPartialResult: nextPartialResult,
            isolation: isolation
        )
    }
}

extension Publishers.Scan: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
