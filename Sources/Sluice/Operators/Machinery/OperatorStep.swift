/// What an operator does with one upstream value.
@usableFromInline
package enum StepResult<Output, Failure: Error> {
    /// Send this downstream; the downstream's answer is the demand returned upstream.
    case emit(Output)
    /// Send nothing, and ask upstream for one more value in its place (Combine's `filter`).
    case drop
    /// Send this downstream, then end: cancel upstream and finish (the last of `prefix`).
    case last(Output)
    /// End: cancel upstream and finish downstream (`prefix(while:)` past its prefix).
    case finish
    /// End: cancel upstream and fail downstream (a `try` operator whose closure threw).
    case fail(Failure)
}

extension StepResult {
    /// Acts on this result for the operator's subscriber (``OperatorSubscriber``,
    /// ``GuardedOperatorSubscriber``): sends it to `downstream` and returns the demand for the
    /// upstream; `end` ends the operator and hands back the upstream subscription, which is
    /// cancelled (after the last value, for `.last`).
    @inlinable @inline(__always)
    package func deliver<Downstream: Subscriber>(
        to downstream: Downstream, ending end: () -> (any Subscription)?
    ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
        switch self {
        case .emit(let output):
            return downstream.receive(output)
        case .drop:
            return .max(1)
        case .last(let output):
            let upstream = end()
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
            upstream?.cancel()
        case .finish:
            end()?.cancel()
            downstream.receive(completion: .finished)
        case .fail(let failure):
            end()?.cancel()
            downstream.receive(completion: .failure(failure))
        }
        return .none
    }
}

/// The per-operator logic of an operator that keeps its upstream's demand one for one: a
/// specialisable value, run by ``OperatorSubscriber`` (one subscriber for all of them).
///
/// Such an operator hands its upstream subscription straight to its downstream, as Combine's
/// `map` and `filter` do: the downstream's `request(_:)` and `cancel()` reach upstream with no
/// wrapper, and a dropped value returns `.max(1)` from `receive(_:)`, which the upstream adds to
/// the demand. With every step `@inlinable`, `subject.map(f).filter(g).sink(h)` specialises
/// into one loop (the "Deferred { (0..<N).publisher }.map.filter → sink" benchmark row; over
/// a `Publishers.Sequence` itself, `map` and `filter` are Combine's eager overloads).
///
/// An operator's `receive(subscriber:)` is `@inline(__always)` and calls its upstream's
/// `receive(subscriber:)`, not `subscribe(_:)`; Performance.md in the catalog says why (a long
/// chain would otherwise run generic).
@usableFromInline
package protocol OperatorStep<Input, Output, UpstreamFailure, Failure> {
    associatedtype Input
    associatedtype Output
    associatedtype UpstreamFailure: Error
    associatedtype Failure: Error

    /// Whether ``receive(_:)`` can end the stream (`.last`, `.finish`, `.fail`), so the
    /// subscriber must keep the upstream subscription to cancel it.
    static var canEnd: Bool { get }

    /// What `print()` shows for the operator's subscriber (Combine's name for it).
    var name: String { get }

    /// The step for one value. Called serially (rule 3).
    mutating func receive(_ input: Input) -> StepResult<Output, Failure>

    /// The downstream's failure for an upstream failure.
    func mapFailure(_ failure: UpstreamFailure) -> Failure
}

extension OperatorStep where UpstreamFailure == Failure {
    @inlinable package func mapFailure(_ failure: Failure) -> Failure { failure }
}

extension OperatorStep {
    @inlinable package static var canEnd: Bool { false }
}
