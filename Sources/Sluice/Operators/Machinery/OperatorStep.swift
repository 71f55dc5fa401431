/// What an operator does with one upstream value.
@usableFromInline
package enum StepResult<Output, Failure: Error> {
    /// Send this downstream; the downstream's answer is the demand returned upstream.
    case emit(Output)
    /// Send nothing, and ask upstream for one more value in its place (Combine's `filter`).
    case drop
    /// Send nothing and ask for nothing in its place (Combine's `dropFirst`, which asked for
    /// the values it omits when the upstream's subscription came).
    case skip
    /// Send this downstream, then end: cancel upstream and finish (the last of `prefix`). The
    /// downstream's answer is returned upstream, as for any value (Combine's `prefix` returns
    /// it too); a cancelled upstream ignores it.
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
    /// cancelled before the completion (and after the last value, for `.last`), as in Combine.
    @inlinable @inline(__always)
    package func deliver<Downstream: Subscriber>(
        to downstream: Downstream, ending end: () -> (any Subscription)?
    ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
        switch self {
        case .emit(let output):
            return downstream.receive(output)
        case .drop:
            return .max(1)
        case .skip:
            break
        case .last(let output):
            let upstream = end()
            let demand = downstream.receive(output)
            upstream?.cancel()
            downstream.receive(completion: .finished)
            return demand
        case .finish:
            end()?.cancel()
            downstream.receive(completion: .finished)
        case .fail(let failure):
            end()?.cancel()
            downstream.receive(completion: .failure(failure))
        }
        return .none
    }

    /// Sends this result's value, if any, to `downstream` and ignores its end: what an operator
    /// does with a value that came before its upstream subscription (``EarlySignals/passValues``).
    @inlinable
    package func deliverWithoutEnding<Downstream: Subscriber>(
        to downstream: Downstream
    ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
        switch self {
        case .emit(let output), .last(let output): downstream.receive(output)
        case .drop: .max(1)
        case .skip, .finish, .fail: .none
        }
    }
}

/// The per-operator logic of an operator that keeps its upstream's demand one for one: a
/// specialisable value, run by ``OperatorSubscriber`` (one subscriber for all of them).
///
/// Such an operator hands its upstream subscription straight to its downstream, as Combine's `map` and
/// `filter` do: the downstream's `request(_:)` and `cancel()` reach upstream with no wrapper, and a dropped
/// value returns `.max(1)` from `receive(_:)`, which the upstream adds to the demand. With every step
/// `@inlinable`, `subject.map(f).filter(g).sink(h)` specialises into one loop. An operator's
/// `receive(subscriber:)` is `@inline(__always)` and calls its upstream's `receive(subscriber:)`, not
/// `subscribe(_:)`, so a long chain does not run generic (Performance.md in the catalog).
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

    func mapFailure(_ failure: UpstreamFailure) -> Failure

    /// What to ask of the upstream when its subscription comes, on top of what the downstream
    /// asked for so far; used by ``GuardedOperatorSubscriber`` with
    /// ``EarlySignals/handDownFirst`` only (`.none` by default).
    mutating func upstreamSubscribed() -> Subscribers.Demand

    /// Sees the upstream's subscription before the downstream gets it; used by
    /// ``OperatorSubscriber`` (nothing by default; `breakpoint`'s step stops there).
    func observe(subscription: any Subscription)

    /// Sees the upstream's completion before the downstream gets it; used by
    /// ``OperatorSubscriber`` (nothing by default).
    func observe(completion: Subscribers.Completion<UpstreamFailure>)

    /// What the operator subscriber's `customMirror` shows, as Combine's mirror of that operator
    /// does (``StepMirror/downstream`` by default).
    static var mirror: StepMirror { get }

    /// The mirror's children when the step shows its own (`map(\.key)`'s key path,
    /// `assertNoFailure`'s prefix, file and line), in place of those ``mirror`` says; `nil` by
    /// default. The mirror may be read on any thread while the upstream runs the step, so only
    /// a step whose fields are all constants (`let`, with a non-mutating `receive`) gives them.
    var constantMirrorChildren: [Mirror.Child]? { get }
}

/// The children of an operator subscriber's mirror, as Combine's mirror of the operator shows
/// them. None of them is the step's running state, which belongs to the upstream's thread.
@usableFromInline
package enum StepMirror: Sendable {
    /// None (`map`, `filter` and most one-for-one operators).
    case empty
    /// The downstream while the stream lasts (`tryFilter`, `prefix(while:)`).
    case downstream
    /// The downstream, whether the stream has ended (`finished`) and the upstream's
    /// subscription (`upstreamSubscription`): `encode` and `decode`.
    case coder
}

extension OperatorStep where UpstreamFailure == Failure {
    @inlinable package func mapFailure(_ failure: Failure) -> Failure { failure }
}

extension OperatorStep {
    @inlinable package static var canEnd: Bool { false }
    @inlinable package mutating func upstreamSubscribed() -> Subscribers.Demand { .none }
    @inlinable package func observe(subscription: any Subscription) {}
    @inlinable package func observe(completion: Subscribers.Completion<UpstreamFailure>) {}
    @inlinable package static var mirror: StepMirror { .downstream }
    @inlinable package var constantMirrorChildren: [Mirror.Child]? { nil }
}
