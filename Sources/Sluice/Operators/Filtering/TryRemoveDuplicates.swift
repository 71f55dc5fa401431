extension Publishers {
    /// A publisher that republishes an element only if a predicate that can throw says it
    /// differs from the last one republished.
    ///
    /// When the predicate throws, the upstream is cancelled and the error is the downstream's failure.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher this one filters.
        public let upstream: Upstream

        /// Whether two elements count as duplicates; an error it throws ends the stream.
        public let predicate: (Output, Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher dropping the elements of `upstream` that duplicate the last one sent.
        @inlinable
        public init(
            upstream: Upstream,
            predicate: @escaping (Output, Output) throws -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the upstream; each subscription starts with no last element.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = TryRemoveDuplicatesStep<Output, Upstream.Failure>(isDuplicate: predicate)
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .trap),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct TryRemoveDuplicatesStep<Input, UpstreamFailure: Error>: OperatorStep {
    @usableFromInline typealias Failure = any Error
    @usableFromInline var last: Input?
    @usableFromInline let isDuplicate: (Input, Input) throws -> Bool
    @inlinable init(isDuplicate: @escaping (Input, Input) throws -> Bool) { self.isDuplicate = isDuplicate }
    @inlinable static var canEnd: Bool { true }
    @inlinable var name: String { "TryRemoveDuplicates" }
    @inlinable mutating func receive(_ input: Input) -> StepResult<Input, any Error> {
        do {
            if let last, try isDuplicate(last, input) { return .drop }
        } catch {
            return .fail(error)
        }
        last = input
        return .emit(input)
    }
    @inlinable func mapFailure(_ failure: UpstreamFailure) -> any Error { failure }
}

extension Publisher {
    /// Republishes an element only if a predicate that can throw says it is no duplicate of the
    /// last one republished; a thrown error cancels the upstream and fails the stream.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate, isolation: isolation)
    }
}

extension Publishers.TryRemoveDuplicates: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
