import Sluice

extension Publisher where Output: Collection {
    /// Transforms every element of each collection value with `transform` (CombineExt's `mapMany`); `transform`
    /// runs where `map`'s does (on the caller's actor when made in actor-isolated code).
    public func mapMany<Result>(
        _ transform: @escaping (Output.Element) -> Result, isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Self, [Result]> {
        map({ $0.map(transform) }, isolation: isolation)
    }

    /// Keeps the elements of each collection value that `isIncluded` accepts (CombineExt's `filterMany`); every
    /// value still goes out, possibly empty. `isIncluded` runs where `map`'s closure does.
    public func filterMany(
        _ isIncluded: @escaping (Output.Element) -> Bool, isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Self, [Output.Element]> {
        map({ $0.filter(isIncluded) }, isolation: isolation)
    }
}
