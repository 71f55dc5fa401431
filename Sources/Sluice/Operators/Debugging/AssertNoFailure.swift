extension Publishers {
    /// A publisher that passes its upstream on unchanged and stops the process if it fails: a
    /// failure there is a programming error.
    ///
    /// The trap's message has the prefix, the file and line of the call, and the error.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The publisher that must not fail.
        public let upstream: Upstream

        /// Written at the start of the trap's message.
        public let prefix: String

        /// The file of the `assertNoFailure` call, for the message.
        public let file: StaticString

        /// The line of the `assertNoFailure` call, for the message.
        public let line: UInt

        /// Creates a publisher that traps if `upstream` fails.
        @inlinable
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Subscribes `subscriber`; elements and the subscription pass straight through.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = AssertNoFailureStep<Output, Upstream.Failure>(prefix: prefix, file: file, line: line)
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber))
        }
    }
}

@usableFromInline
struct AssertNoFailureStep<Input, UpstreamFailure: Error>: OperatorStep {
    @usableFromInline typealias Failure = Never
    @usableFromInline let prefix: String
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt
    @inlinable init(prefix: String, file: StaticString, line: UInt) {
        self.prefix = prefix
        self.file = file
        self.line = line
    }
    @inlinable var name: String { "AssertNoFailure" }
    /// Combine's: where the operator was made, and the prefix of its message.
    @usableFromInline var constantMirrorChildren: [Mirror.Child]? {
        [("file", file), ("line", line), ("prefix", prefix)]
    }
    @inlinable func receive(_ input: Input) -> StepResult<Input, Never> { .emit(input) }
    @inlinable func mapFailure(_ failure: UpstreamFailure) -> Never {
        Violation.unexpectedFailure(failure, prefix: prefix, file: file, line: line)
    }
}

extension Publisher {
    /// Passes the upstream on unchanged, as a publisher that never fails, and stops the process
    /// if it fails after all.
    @inlinable
    public func assertNoFailure(
        _ prefix: String = "",
        file: StaticString = #file,
        line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}
