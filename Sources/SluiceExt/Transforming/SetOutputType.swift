import Sluice

extension Publisher where Output == Never {
    /// Gives a publisher that never publishes a value the output type `outputType` (CombineExt's
    /// `setOutputType(to:)`), as `setFailureType(to:)` does for failures. Completion and demand pass through.
    public func setOutputType<NewOutput>(to outputType: NewOutput.Type) -> Publishers.Map<Self, NewOutput> {
        map(absurd, isolation: nil)
    }
}

extension Publisher {
    /// Drops every value and sets the output type to `outputType` (CombineExt's `ignoreOutput(setOutputType:)`).
    public func ignoreOutput<NewOutput>(setOutputType outputType: NewOutput.Type)
        -> Publishers.Map<Publishers.IgnoreOutput<Self>, NewOutput>
    {
        ignoreOutput().setOutputType(to: outputType)
    }
}

private func absurd<Result>(_ never: Never) -> Result {}
