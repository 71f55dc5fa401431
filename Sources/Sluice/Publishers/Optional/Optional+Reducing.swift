// Combine's specialised overloads of the reducing operators on `Optional.Publisher`: the result is computed
// when the operator is called (a closure runs then, at most once). Unlike the generic operators, most of
// these publish nothing when the output is `nil`: `count()` sends no 0, `allSatisfy(_:)` no `true`,
// `contains` no `false`, `reduce` not its initial result; only `collect()` sends an (empty) array, as in Combine.

extension Optional.Publisher {
    /// Publishes the output in a one-element array, or an empty array when there is none.
    @inlinable
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// Publishes 1 when there is an output; with none it finishes without a value (no 0).
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// Combines `initialResult` with the output, if any, now, and publishes the result; with
    /// no output it publishes nothing (not `initialResult`).
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Returns `self`: the only element, if any, is the smallest; `areInIncreasingOrder` is not called.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns `self`: the only element, if any, is the largest; `areInIncreasingOrder` is not called.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Publishes whether `predicate` holds for the output, tested now; with no output, nothing (no `false`).
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Publishes whether `predicate` holds for the output, tested now; with no output, nothing (no `true`).
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        contains(where: predicate)
    }

    /// A publisher that finishes at once without publishing the output.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty<Output, Failure>()
    }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// Returns `self`: the only element, if any, is the smallest.
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns `self`: the only element, if any, is the largest.
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher where Wrapped: Equatable {
    /// Publishes whether the output equals `output`, compared now; with no output, nothing (no `false`).
    @inlinable
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }
}
