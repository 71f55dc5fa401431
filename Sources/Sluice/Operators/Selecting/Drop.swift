extension Publishers {
    /// A publisher that omits a given number of elements before republishing the rest.
    ///
    /// Each omitted element is replaced by one more requested upstream, so a downstream's
    /// demand is met by republished elements.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one omits elements of.
        public let upstream: Upstream

        /// How many elements to omit.
        public let count: Int

        /// Creates a publisher omitting the first `count` elements of `upstream`.
        ///
        /// A negative `count` is a programming error and traps.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            if count < 0 { Violation.negativeCount(count, in: "dropFirst(_:)") }
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes `subscriber`; each subscription omits its own first `count` elements.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = SkipStep<Output, Failure>(name: "Drop", remaining: count)
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber))
        }
    }
}

/// The step of `dropFirst`: omits the first elements, each replaced by one more demand.
@usableFromInline
struct SkipStep<Input, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline let name: String
    @usableFromInline var remaining: Int
    @inlinable init(name: String, remaining: Int) {
        self.name = name
        self.remaining = remaining
    }
    @inlinable mutating func receive(_ input: Input) -> StepResult<Input, Failure> {
        guard remaining > 0 else { return .emit(input) }
        remaining -= 1
        return .drop
    }
}

extension Publisher {
    /// Omits the first `count` elements and republishes the rest.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> { Publishers.Drop(upstream: self, count: count) }
}
