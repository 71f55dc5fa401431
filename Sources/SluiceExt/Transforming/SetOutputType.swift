import Sluice

extension Publisher where Output == Never {
    /// Gives a publisher that never publishes a value the output type `outputType`
    /// (CombineExt's `setOutputType(to:)`), as `setFailureType(to:)` does for failures.
    /// Completion and demand pass through.
    public func setOutputType<NewOutput>(to outputType: NewOutput.Type) -> Publishers.Map<Self, NewOutput> {
        map(absurd, isolation: nil)
    }
}

extension Publisher {
    /// Drops every value and gives the result the output type `outputType` (CombineExt's
    /// `ignoreOutput(setOutputType:)`): only the completion comes through.
    public func ignoreOutput<NewOutput>(setOutputType outputType: NewOutput.Type)
        -> Publishers.Map<Publishers.IgnoreOutput<Self>, NewOutput>
    {
        ignoreOutput().setOutputType(to: outputType)
    }
}

/// The function from `Never`: it is never called (an upstream of `Never` sends no value).
private func absurd<Result>(_ never: Never) -> Result {}
