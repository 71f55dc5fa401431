import Sluice

extension Publisher {
    /// Splits this publisher's values in two by `predicate` (CombineExt's `partition`). Both halves share one
    /// subscription through `share()` (so `predicate` runs once per value, where `map`'s closure does): the first
    /// half subscribed subscribes it, and a half subscribed later misses what was sent before.
    public func partition(
        _ predicate: @escaping (Output) -> Bool, isolation: (any Actor)? = #isolation
    ) -> (matches: AnyPublisher<Output, Failure>, nonMatches: AnyPublisher<Output, Failure>) {
        let source = map({ ($0, predicate($0)) }, isolation: isolation).share()
        let matches = source.compactMap({ $0.1 ? $0.0 : nil }, isolation: nil).eraseToAnyPublisher()
        let nonMatches = source.compactMap({ $0.1 ? nil : $0.0 }, isolation: nil).eraseToAnyPublisher()
        return (matches, nonMatches)
    }
}
