import Sluice

extension Publisher where Output: Hashable {
    /// Drops every value equal to one delivered before, not only to the previous one (CombineExt's
    /// `removeAllDuplicates`). Each subscription keeps the values it has seen in a set: memory grows with the
    /// number of distinct values. Demand: a dropped value is replaced by one more requested upstream.
    public func removeAllDuplicates() -> Deferred<Publishers.Filter<Self>> {
        Deferred {
            var seen = Set<Output>()
            return self.filter({ seen.insert($0).inserted }, isolation: nil)
        }
    }
}

extension Publisher where Output: Equatable {
    /// Drops every value equal to one delivered before; the values seen are kept in an array (a linear search
    /// per value). See the `Hashable` overload.
    public func removeAllDuplicates() -> Deferred<Publishers.Filter<Self>> {
        removeAllDuplicates(by: ==, isolation: nil)
    }
}

extension Publisher {
    /// Drops every value for which `isDuplicate(seen, value)` is `true` for some value `seen` delivered before.
    /// Each subscription keeps the values it delivered. The closure runs where `filter`'s does (on the caller's
    /// actor when made in actor-isolated code).
    ///
    /// <!-- snippet: RemoveAllDuplicatesBy -->
    /// ```swift
    /// let recorder = RecordingSubscriber<String, Never>()
    /// ["a", "B", "A", "b", "c"].publisher
    ///     .removeAllDuplicates { $0.lowercased() == $1.lowercased() }
    ///     .subscribe(recorder)
    /// #expect(recorder.values == ["a", "B", "c"])
    /// ```
    public func removeAllDuplicates(
        by isDuplicate: @escaping (Output, Output) -> Bool, isolation: (any Actor)? = #isolation
    ) -> Deferred<Publishers.Filter<Self>> {
        Deferred {
            var seen: [Output] = []
            return self.filter({ value in
                if seen.contains(where: { isDuplicate($0, value) }) { return false }
                seen.append(value)
                return true
            }, isolation: isolation)
        }
    }
}
