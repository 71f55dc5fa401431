extension Publishers {
    /// A publisher that sends its upstream's first element and finishes, cancelling the
    /// upstream; with no element, it only finishes.
    ///
    /// Like Combine's, it asks the upstream for `.unlimited` once its downstream asks for anything.
    public struct First<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose first element this one sends.
        public let upstream: Upstream

        /// Creates a publisher sending the first element of `upstream`.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step: AccumulateStep<Output, Output, Failure, Failure> = selectStep("First", last: false) { _ in true }
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber))
        }
    }

    /// A publisher that sends the first element satisfying a predicate and finishes,
    /// cancelling the upstream; with none, it only finishes.
    ///
    /// Its subscription describes itself as "TryFirst", the name Combine's has.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one searches.
        public let upstream: Upstream

        /// The predicate the element sent must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher sending the first element of `upstream` that satisfies `predicate`.
        @inlinable
        public init(
            upstream: Upstream,
            predicate: @escaping (Upstream.Output) -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step: AccumulateStep<Output, Output, Failure, Failure> = selectStep("TryFirst", last: false, predicate)
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }

    /// A publisher that sends the first element satisfying a predicate that can throw; a
    /// thrown error cancels the upstream and fails the stream.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher this one searches.
        public let upstream: Upstream

        /// The predicate the element sent must satisfy; an error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher sending the first element of `upstream` that satisfies `predicate`.
        @inlinable
        public init(
            upstream: Upstream,
            predicate: @escaping (Upstream.Output) throws -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = trySelectStep("TryFirstWhere", last: false, predicate, failure: Upstream.Failure.self)
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }
}

/// The step of `first` and `last`: the first element that `matches` is sent at once (first),
/// or the last one is kept and sent when the upstream finishes (last).
@inlinable
func selectStep<Input, Failure: Error>(
    _ name: String, last: Bool, _ matches: @escaping (Input) -> Bool
) -> AccumulateStep<Input, Input, Failure, Failure> {
    AccumulateStep(name: name, result: nil) { kept, element in
        guard matches(element) else { return .more }
        if !last { return .done(element) }
        kept = element
        return .more
    }
}

/// ``selectStep(_:last:_:)`` for a predicate that can throw.
@inlinable
func trySelectStep<Input, UpstreamFailure: Error>(
    _ name: String, last: Bool, _ matches: @escaping (Input) throws -> Bool, failure: UpstreamFailure.Type
) -> AccumulateStep<Input, Input, UpstreamFailure, any Error> {
    AccumulateStep(name: name, result: nil, mapFailure: { $0 }) { kept, element in
        do {
            guard try matches(element) else { return .more }
        } catch {
            return .fail(error)
        }
        if !last { return .done(element) }
        kept = element
        return .more
    }
}

extension Publisher {
    /// Sends the first element and finishes, cancelling the upstream.
    @inlinable
    public func first() -> Publishers.First<Self> { Publishers.First(upstream: self) }

    /// Sends the first element that satisfies `predicate` and finishes, cancelling the upstream.
    @inlinable
    public func first(
        where predicate: @escaping (Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate, isolation: isolation)
    }

    /// Sends the first element that satisfies a predicate that can throw; a thrown error
    /// cancels the upstream and fails the stream.
    @inlinable
    public func tryFirst(
        where predicate: @escaping (Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate, isolation: isolation)
    }
}
