import Sluice

extension Publisher {
    /// Delivers each value as `.success`, and a failure as one last `.failure` value followed by a finish
    /// (CombineExt's `mapToResult`). The last value waits for demand, as any value does.
    @inlinable
    public func mapToResult() -> AnyPublisher<Result<Output, Failure>, Never> {
        map({ Result<Output, Failure>.success($0) }, isolation: nil)
            .catch({ Just(Result<Output, Failure>.failure($0)) }, isolation: nil)
            .eraseToAnyPublisher()
    }
}
