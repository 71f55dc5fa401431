import Sluice

extension Publishers {
    /// A publisher that pairs each value with its index, counting from `initial` (CombineExt's `enumerated`).
    /// Each subscription counts on its own; demand passes through one for one.
    public struct Enumerated<Upstream: Publisher>: Publisher {
        public typealias Output = (index: Int, element: Upstream.Output)
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are counted.
        public let upstream: Upstream
        /// The first value's index.
        public let initial: Int

        /// Creates the publisher; prefer `enumerated(initial:)`.
        public init(upstream: Upstream, initial: Int = 0) {
            self.upstream = upstream
            self.initial = initial
        }

        /// Subscribes `subscriber` to the upstream through a counter of its own.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                OperatorSubscriber(
                    step: EnumeratedStep<Upstream.Output, Failure>(next: initial),
                    downstream: subscriber
                )
            )
        }
    }
}

extension Publisher {
    /// Pairs each value with its index, from `initial`; see `Publishers.Enumerated`.
    public func enumerated(initial: Int = 0) -> Publishers.Enumerated<Self> {
        Publishers.Enumerated(upstream: self, initial: initial)
    }
}

/// Inlinable, so that the operator runs specialised in the client.
@usableFromInline
struct EnumeratedStep<Input, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline var next: Int
    @usableFromInline var name: String { "Enumerated" }

    @inlinable init(next: Int) { self.next = next }

    @inlinable
    mutating func receive(_ input: Input) -> StepResult<(index: Int, element: Input), Failure> {
        defer { next += 1 }
        return .emit((index: next, element: input))
    }
}
