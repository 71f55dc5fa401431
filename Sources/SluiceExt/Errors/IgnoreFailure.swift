import Sluice

extension Publisher {
    /// Replaces a failure with a finish, or with nothing (CombineExt's `ignoreFailure`): with `completeImmediately`
    /// the stream finishes when the upstream fails, otherwise it never completes. Values and demand pass through.
    @inlinable
    public func ignoreFailure(completeImmediately: Bool = true) -> AnyPublisher<Output, Never> {
        `catch`({ _ in Empty<Output, Never>(completeImmediately: completeImmediately) }, isolation: nil)
            .eraseToAnyPublisher()
    }

    /// `ignoreFailure(completeImmediately:)`, with the failure type set to `failureType` (never sent).
    public func ignoreFailure<NewFailure: Error>(
        setFailureType failureType: NewFailure.Type, completeImmediately: Bool = true
    ) -> AnyPublisher<Output, NewFailure> {
        ignoreFailure(completeImmediately: completeImmediately)
            .setFailureType(to: failureType)
            .eraseToAnyPublisher()
    }
}
