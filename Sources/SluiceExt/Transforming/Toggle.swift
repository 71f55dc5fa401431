import Sluice

extension Publisher where Output == Bool {
    /// Negates every value (CombineExt's `toggle`).
    public func toggle() -> Publishers.Map<Self, Bool> {
        map({ !$0 }, isolation: nil)
    }
}
