extension Publishers {
    /// A publisher that appears to send a failure type of your choice; its upstream never fails.
    ///
    /// Elements and the completion pass through; the subscription is the upstream's own.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        public typealias Output = Upstream.Output

        /// The publisher this one retypes.
        public let upstream: Upstream

        /// Creates a publisher that gives `upstream` the failure type `Failure`.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Subscribes `subscriber` to the upstream.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: OperatorSubscriber(step: SetFailureTypeStep<Output, Failure>(), downstream: subscriber)
            )
        }

        /// Changes the failure type again, as Combine does.
        @inlinable
        public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            .init(upstream: upstream)
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

@usableFromInline
struct SetFailureTypeStep<Input, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Never
    @inlinable init() {}
    @inlinable var name: String { "SetFailureType" }
    @inlinable static var mirror: StepMirror { .empty }
    @inlinable func receive(_ input: Input) -> StepResult<Input, Failure> { .emit(input) }
    @inlinable func mapFailure(_ failure: Never) -> Failure {}
}

extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher; nothing is ever sent as one.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}
