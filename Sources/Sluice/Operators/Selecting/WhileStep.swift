/// The step of `drop(while:)` (omit while the predicate holds, then republish everything) and
/// `prefix(while:)` (republish while it holds, then finish), throwing or not.
@usableFromInline
struct WhileStep<Input, UpstreamFailure: Error, Failure: Error>: OperatorStep {
    @usableFromInline let dropping: Bool
    @usableFromInline let predicate: (Input) -> Result<Bool, Failure>
    @usableFromInline let convert: (UpstreamFailure) -> Failure
    @usableFromInline let name: String
    @usableFromInline var passed = false

    @inlinable
    init(
        dropping: Bool,
        name: String,
        convert: @escaping (UpstreamFailure) -> Failure,
        predicate: @escaping (Input) -> Result<Bool, Failure>
    ) {
        self.dropping = dropping
        self.name = name
        self.convert = convert
        self.predicate = predicate
    }

    @inlinable static var canEnd: Bool { true }

    @inlinable
    mutating func receive(_ input: Input) -> StepResult<Input, Failure> {
        if passed { return .emit(input) }   // drop(while:) past the omitted prefix
        switch predicate(input) {
        case .failure(let failure): return .fail(failure)
        case .success(true): return dropping ? .drop : .emit(input)
        case .success(false):
            if !dropping { return .finish }
            passed = true
            return .emit(input)
        }
    }

    @inlinable func mapFailure(_ failure: UpstreamFailure) -> Failure { convert(failure) }
}

extension WhileStep where UpstreamFailure == Failure {
    @inlinable
    init(dropping: Bool, name: String, predicate: @escaping (Input) -> Result<Bool, Failure>) {
        self.init(dropping: dropping, name: name, convert: { $0 }, predicate: predicate)
    }
}

extension WhileStep where Failure == any Error {
    @inlinable
    init(dropping: Bool, name: String, predicate: @escaping (Input) -> Result<Bool, any Error>) {
        self.init(dropping: dropping, name: name, convert: { $0 }, predicate: predicate)
    }
}
