/// What ``AccumulateStep``'s closure decides for one element.
@usableFromInline
enum Accumulation<Output, Failure: Error> {
    /// Keep going (with the result as the closure left it).
    case more
    /// Send this now and finish.
    case done(Output)
    /// Fail.
    case fail(Failure)
}

/// The step of every reducing operator: it keeps one running result (`nil` until there is
/// one), which the closure updates in place for each element or replaces by a value to send at
/// once (reduce, collect, count, min/max, contains, allSatisfy, first, last).
@usableFromInline
struct AccumulateStep<Input, Output, UpstreamFailure: Error, Failure: Error>: ReducerStep {
    @usableFromInline let name: String
    @usableFromInline var result: Output?
    @usableFromInline let initial: Output?
    @usableFromInline let accumulate: (inout Output?, Input) -> Accumulation<Output, Failure>
    @usableFromInline let mapUpstreamFailure: (UpstreamFailure) -> Failure

    /// `result` is what is sent if the upstream finishes first (`nil`: nothing is sent).
    @inlinable
    init(
        name: String, result: Output?,
        mapFailure: @escaping (UpstreamFailure) -> Failure,
        accumulate: @escaping (inout Output?, Input) -> Accumulation<Output, Failure>
    ) {
        self.name = name
        self.result = result
        initial = result
        self.mapUpstreamFailure = mapFailure
        self.accumulate = accumulate
    }

    @inlinable
    mutating func receive(_ input: Input) -> ReduceAction<Output, Failure> {
        switch accumulate(&result, input) {
        case .more: return .more
        case .done(let output): return .finish(output)
        case .fail(let failure): return .fail(failure)
        }
    }

    @inlinable mutating func finish() -> Output? { result }
    @inlinable func mapFailure(_ failure: UpstreamFailure) -> Failure { mapUpstreamFailure(failure) }
}

extension AccumulateStep where UpstreamFailure == Failure {
    /// A step whose operator passes the upstream's failure on unchanged.
    @inlinable
    init(name: String, result: Output?, accumulate: @escaping (inout Output?, Input) -> Accumulation<Output, Failure>) {
        self.init(name: name, result: result, mapFailure: { $0 }, accumulate: accumulate)
    }
}
