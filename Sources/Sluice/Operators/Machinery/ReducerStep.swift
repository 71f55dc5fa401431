/// What a reducing operator does after one upstream value.
@usableFromInline
enum ReduceAction<Output, Failure: Error> {
    /// Keep going.
    case more
    /// Done early (`first`, `contains`, `allSatisfy`): cancel upstream, send this, finish.
    case finish(Output)
    /// A `try` operator's closure threw: cancel upstream and fail.
    case fail(Failure)
}

/// The per-operator logic of an operator that turns its whole upstream into at most one value (`reduce`,
/// `collect`, `count`, `min`, `contains`, `first`, `last`, …), run by ``ReducingSubscription``.
///
/// As in Combine, such an operator asks its upstream for `.unlimited` once its downstream has
/// asked for anything, so the one value it sends always has demand waiting for it.
@usableFromInline
protocol ReducerStep<Input, Output, UpstreamFailure, Failure> {
    associatedtype Input
    associatedtype Output
    associatedtype UpstreamFailure: Error
    associatedtype Failure: Error

    /// What `print()` shows for the operator's subscription (Combine's name for it).
    var name: String { get }

    /// The result it starts from (`nil`: none), which its subscription's mirror shows as
    /// `initial`, as Combine's does.
    var initial: Output? { get }

    /// The step for one value. Called serially (rule 3).
    mutating func receive(_ input: Input) -> ReduceAction<Output, Failure>

    /// The value to send when the upstream finishes, if any.
    mutating func finish() -> Output?

    /// The downstream's failure for an upstream failure.
    func mapFailure(_ failure: UpstreamFailure) -> Failure
}

extension ReducerStep where UpstreamFailure == Failure {
    @inlinable func mapFailure(_ failure: Failure) -> Failure { failure }
}
