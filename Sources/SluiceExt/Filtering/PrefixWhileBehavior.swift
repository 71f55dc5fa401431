import Sluice

/// Whether `prefix(while:behavior:)` also delivers the first value that fails its predicate (CombineExt's
/// `PrefixWhileBehavior`).
public enum PrefixWhileBehavior: Sendable {
    /// Deliver the first failing value, then finish.
    case inclusive
    /// Finish at the first failing value without delivering it (Combine's `prefix(while:)`).
    case exclusive
}

extension Publisher {
    /// Delivers values while `predicate` holds, then finishes; with `.inclusive`, the first value that fails it
    /// is delivered before the finish (CombineExt's `prefix(while:behavior:)`).
    ///
    /// Demand, upstream failures and where `predicate` runs are as with `prefix(while:)`; at the first failing
    /// value the upstream is cancelled. Unlike CombineExt's, `behavior` has no default: Sluice's own
    /// `prefix(while:)` serves a call without it (as `.exclusive`).
    ///
    /// <!-- snippet: PrefixWhileInclusive -->
    /// ```swift
    /// let recorder = RecordingSubscriber<Int, Never>()
    /// [1, 2, 5, 3].publisher.prefix(while: { $0 < 3 }, behavior: .inclusive).subscribe(recorder)
    /// #expect(recorder.values == [1, 2, 5])
    /// #expect(recorder.completion == .finished)
    /// ```
    public func prefix(
        while predicate: @escaping (Output) -> Bool, behavior: PrefixWhileBehavior,
        isolation: (any Actor)? = #isolation
    ) -> AnyPublisher<Output, Failure> {
        switch behavior {
        case .exclusive:
            return prefix(while: predicate, isolation: isolation).eraseToAnyPublisher()
        case .inclusive:
            return PrefixThrough(upstream: self, predicate: predicate, isolation: isolation).eraseToAnyPublisher()
        }
    }
}

/// `prefix(while:behavior: .inclusive)`: a step that ends with the first failing value (`.last`), not before it.
struct PrefixThrough<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let predicate: (Output) -> Bool
    let isolation: (any Actor)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.receive(subscriber: subscriber, through: PrefixThroughStep(predicate: predicate), isolation: isolation)
    }
}

struct PrefixThroughStep<Input, Failure: Error>: OperatorStep {
    typealias Output = Input
    typealias UpstreamFailure = Failure

    let predicate: (Input) -> Bool

    static var canEnd: Bool { true }

    var name: String { "PrefixWhile" }

    func receive(_ input: Input) -> StepResult<Input, Failure> {
        predicate(input) ? .emit(input) : .last(input)
    }
}
