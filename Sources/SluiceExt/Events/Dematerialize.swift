import Sluice

extension Publishers {
    /// A publisher that turns a stream of events back into signals (CombineExt's `dematerialize()`): each
    /// `.value` is delivered, a `.failure` fails the stream and a `.finished` finishes it, either one cancelling
    /// the upstream. The upstream finishing finishes the stream too.
    ///
    /// Demand passes through one for one: the downstream's subscription is the upstream's own.
    public struct Dematerialize<Upstream: Publisher>: Publisher
    where Upstream.Output: EventConvertible, Upstream.Failure == Never {
        public typealias Output = Upstream.Output.Output
        public typealias Failure = Upstream.Output.Failure

        /// The publisher of events.
        public let upstream: Upstream

        /// Creates the publisher; prefer `dematerialize()`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the upstream through the conversion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(OperatorSubscriber(step: DematerializeStep<Upstream.Output>(), downstream: subscriber))
        }
    }
}

@usableFromInline
struct DematerializeStep<Element: EventConvertible>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Never
    @inlinable static var canEnd: Bool { true }
    @usableFromInline var name: String { "Dematerialize" }

    @inlinable init() {}

    @inlinable
    func receive(_ input: Element) -> StepResult<Element.Output, Element.Failure> {
        switch input.event {
        case .value(let value): .emit(value)
        case .failure(let failure): .fail(failure)
        case .finished: .finish
        }
    }

    @inlinable func mapFailure(_ failure: Never) -> Element.Failure {}
}

extension Publisher where Output: EventConvertible, Failure == Never {
    /// Turns a `materialize()`d publisher back into the stream it describes; see `Publishers.Dematerialize`.
    ///
    /// <!-- snippet: MaterializeRoundTrip -->
    /// ```swift
    /// struct Oops: Error, Equatable {}
    /// let events = [1, 2].publisher.setFailureType(to: Oops.self)
    ///     .append(Fail(error: Oops()))
    ///     .materialize()             // .value(1), .value(2), .failure(Oops()), then finished
    /// let recorder = RecordingSubscriber<Int, Oops>()
    /// events.dematerialize().subscribe(recorder)
    /// #expect(recorder.values == [1, 2])
    /// #expect(recorder.completion == .failure(Oops()))
    /// ```
    public func dematerialize() -> Publishers.Dematerialize<Self> {
        Publishers.Dematerialize(upstream: self)
    }
}
