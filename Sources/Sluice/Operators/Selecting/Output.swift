extension Publishers {
    /// A publisher that republishes the elements at the positions in a range, then finishes,
    /// cancelling the upstream: `prefix(_:)`, `output(at:)` and `output(in:)`.
    ///
    /// Each element before the range is replaced by one more requested upstream. An empty
    /// range finishes at the first element.
    ///
    /// As in Combine, the downstream gets a subscription of the operator's own ("Output" in `print()`), which
    /// passes demand upstream one for one: a second upstream subscription is cancelled, nothing reaches
    /// either side once the stream has ended, and of what a misbehaving upstream sends before its
    /// subscription, values go downstream while a completion, a request or a cancel is ignored.
    public struct Output<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one selects elements of.
        public let upstream: Upstream

        /// The positions (counting from 0) of the elements republished.
        public let range: CountableRange<Int>

        /// Creates a publisher republishing the elements of `upstream` at the positions in `range`.
        ///
        /// A negative lower bound is a programming error and traps.
        @inlinable
        public init(upstream: Upstream, range: CountableRange<Int>) {
            if range.lowerBound < 0 { Violation.negativeCount(range.lowerBound, in: "output(in:)") }
            self.upstream = upstream
            self.range = range
        }

        /// Subscribes `subscriber`; each subscription counts positions from 0.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = RangeStep<Output, Failure>(range: range)
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .passValues)
            )
        }
    }
}

/// The step of ``Publishers/Output``.
@usableFromInline
struct RangeStep<Input, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline let range: CountableRange<Int>
    @usableFromInline var position = 0
    @inlinable init(range: CountableRange<Int>) { self.range = range }
    @inlinable static var canEnd: Bool { true }
    @inlinable var name: String { "Output" }
    @inlinable static var mirror: StepMirror { .empty }

    @inlinable
    mutating func receive(_ input: Input) -> StepResult<Input, Failure> {
        defer { position += 1 }
        if position < range.lowerBound { return .drop }
        if position >= range.upperBound { return .finish }
        return position == range.upperBound - 1 ? .last(input) : .emit(input)
    }
}

extension Publisher {
    /// Republishes the element at `index` (counting from 0), then finishes.
    @inlinable
    public func output(at index: Int) -> Publishers.Output<Self> { output(in: index...index) }

    /// Republishes the elements at the positions in `range` (counting from 0), then finishes.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }

    /// Republishes up to the first `maxLength` elements, then finishes.
    ///
    /// <!-- snippet: OutputPrefixOfEndless -->
    /// ```swift
    /// let firstThree = (1...).publisher.prefix(3)   // 1, 2, 3, then finished: demand stops the endless sequence
    /// ```
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        if maxLength < 0 { Violation.negativeCount(maxLength, in: "prefix(_:)") }
        return output(in: 0..<maxLength)
    }
}
