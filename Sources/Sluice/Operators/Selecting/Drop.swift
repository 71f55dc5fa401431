extension Publishers {
    /// A publisher that omits a given number of elements before republishing the rest.
    ///
    /// As in Combine, the downstream gets the operator's subscription ("Drop" in `print()`) as soon as it
    /// subscribes, and its requests are gathered until the upstream's subscription comes; then the upstream
    /// is asked for them plus the `count` elements to omit, so the omitted elements need no demand of their
    /// own. Later requests pass upstream one for one. A request of `.none` traps (rule 2).
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one omits elements of.
        public let upstream: Upstream

        /// How many elements to omit.
        public let count: Int

        /// Creates a publisher omitting the first `count` elements of `upstream`.
        ///
        /// A negative `count` is a programming error: as in Combine, it traps when the
        /// upstream's subscription comes.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes `subscriber`; each subscription omits its own first `count` elements.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = SkipStep<Output, Failure>(remaining: count)
            let subscription = GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .handDownFirst)
            subscription.handDown()
            upstream.receive(subscriber: subscription)
        }
    }
}

/// The step of `dropFirst`: omits the first elements, which the operator asked for when the
/// upstream's subscription came.
@usableFromInline
struct SkipStep<Input, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline var remaining: Int
    @inlinable init(remaining: Int) { self.remaining = remaining }
    @inlinable var name: String { "Drop" }
    @inlinable static var mirror: StepMirror { .empty }
    @inlinable mutating func receive(_ input: Input) -> StepResult<Input, Failure> {
        guard remaining > 0 else { return .emit(input) }
        remaining -= 1
        return .skip
    }
    @inlinable func upstreamSubscribed() -> Subscribers.Demand {
        if remaining < 0 { Violation.negativeCount(remaining, in: "dropFirst(_:)") }
        return .max(remaining)
    }
}

extension Publisher {
    /// Omits the first `count` elements and republishes the rest.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> { Publishers.Drop(upstream: self, count: count) }
}
