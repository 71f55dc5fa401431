extension Publishers {
    /// A publisher that republishes an element only if it differs from the last one it republished.
    ///
    /// For each element it drops, it asks its upstream for one more, as `filter` does.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one filters.
        public let upstream: Upstream

        /// Whether two elements count as duplicates: the last republished one, then the new one.
        public let predicate: (Output, Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher dropping the elements of `upstream` that duplicate the last one sent.
        @inlinable
        public init(
            upstream: Upstream,
            predicate: @escaping (Output, Output) -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the upstream; each subscription starts with no last element.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = RemoveDuplicatesStep<Output, Failure>(isDuplicate: predicate)
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .trap),
                isolation: isolation
            )
        }
    }
}

@usableFromInline
struct RemoveDuplicatesStep<Input, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline var last: Input?
    @usableFromInline let isDuplicate: (Input, Input) -> Bool
    @inlinable init(isDuplicate: @escaping (Input, Input) -> Bool) { self.isDuplicate = isDuplicate }
    @inlinable var name: String { "RemoveDuplicates" }
    @inlinable mutating func receive(_ input: Input) -> StepResult<Input, Failure> {
        if let last, isDuplicate(last, input) { return .drop }
        last = input
        return .emit(input)
    }
}

extension Publisher where Output: Equatable {
    /// Republishes an element only if it is not equal to the last one republished.
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Republishes an element only if `predicate(last, element)` says it is no duplicate of
    /// the last one republished.
    @inlinable
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate, isolation: isolation)
    }
}

extension Publishers.RemoveDuplicates: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
