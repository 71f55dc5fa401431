extension Publishers {
    /// A publisher that sends one value when its upstream finishes: the result of combining
    /// every element with a closure, starting from an initial result.
    ///
    /// It asks its upstream for `.unlimited` once its downstream asks for anything. An upstream
    /// failure is passed on instead of the result.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one combines.
        public let upstream: Upstream

        /// The result the first element is combined with (and the result for no element).
        public let initial: Output

        /// Combines the result so far with the next element.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher combining the elements of `upstream` from `initial`.
        @inlinable
        public init(
            upstream: Upstream,
            initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber`; each subscription starts from `initial`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (initial, next) = (initial, nextPartialResult)
            let step = AccumulateStep<Upstream.Output, Output, Failure, Failure>(
                name: "Reduce",
                result: initial
            ) { result, element in
                result = next(result ?? initial, element)
                return .more
            }
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }

    /// A publisher that sends one value when its upstream finishes: the result of combining
    /// every element with a closure that can throw.
    ///
    /// When the closure throws, the upstream is cancelled and the error is the downstream's failure.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher whose elements this one combines.
        public let upstream: Upstream

        /// The result the first element is combined with (and the result for no element).
        public let initial: Output

        /// Combines the result so far with the next element; an error ends the stream.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher combining the elements of `upstream` from `initial`.
        @inlinable
        public init(
            upstream: Upstream,
            initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber`; each subscription starts from `initial`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (initial, next) = (initial, nextPartialResult)
            let step = AccumulateStep<Upstream.Output, Output, Upstream.Failure, any Error>(
                name: "TryReduce", result: initial, mapFailure: { $0 }
            ) { result, element in
                do { result = try next(result ?? initial, element) } catch { return .fail(error) }
                return .more
            }
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }
}

extension Publisher {
    /// Combines every element with `nextPartialResult`, from `initialResult`, and sends the
    /// result when the upstream finishes.
    @inlinable
    public func reduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(
            upstream: self,
            initial: initialResult,
            nextPartialResult: nextPartialResult,
            isolation: isolation
        )
    }

    /// Combines every element with a closure that can throw, and sends the result when the
    /// upstream finishes; a thrown error cancels the upstream and fails the stream.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(
            upstream: self,
            initial: initialResult,
            nextPartialResult: nextPartialResult,
            isolation: isolation
        )
    }
}
