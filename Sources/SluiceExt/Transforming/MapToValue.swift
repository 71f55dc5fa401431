import Sluice

extension Publisher {
    /// Replaces every value with `value` (CombineExt's `mapToValue`); otherwise as `map`.
    public func mapToValue<Value>(_ value: Value) -> Publishers.Map<Self, Value> {
        map({ _ in value }, isolation: nil)
    }
}
