// Combine's specialised overloads of the reducing operators on `Just`: over its one element each result is
// known at once, so it is computed when the operator is called (closures included, once) and published by a
// `Just` or, for the `try` forms, a `Result` publisher that fails with what the closure threw.

extension Just {
    /// Publishes the output in a one-element array.
    @inlinable
    public func collect() -> Just<[Output]> {
        Just<[Output]>([output])
    }

    /// Publishes 1, the number of elements `Just` sends.
    @inlinable
    public func count() -> Just<Int> {
        Just<Int>(1)
    }

    /// Combines `initialResult` with the output now, once, and publishes the result.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(.success(nextPartialResult(initialResult, output)))
    }

    /// Combines `initialResult` with the output now, once: the result publishes the
    /// accumulated value, or fails with the error the closure threw.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// Returns `self`: the only element is the smallest; `areInIncreasingOrder` is not called.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Returns `self`: the only element is the largest; `areInIncreasingOrder` is not called.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Tests the output now, once, and publishes whether `predicate` holds for it.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Tests the output now, once: publishes whether `predicate` holds, or fails with the error it threw.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// Tests the output now, once, and publishes whether `predicate` holds for it.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
        contains(where: predicate)
    }

    /// Tests the output now, once: publishes whether `predicate` holds, or fails with the error it threw.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        tryContains(where: predicate)
    }

    /// A publisher that finishes at once without publishing the output.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> {
        Empty<Output, Never>()
    }
}

extension Just where Output: Comparable {
    /// Returns `self`: the only element is the smallest.
    @inlinable
    public func min() -> Just<Output> {
        self
    }

    /// Returns `self`: the only element is the largest.
    @inlinable
    public func max() -> Just<Output> {
        self
    }
}

extension Just where Output: Equatable {
    /// Publishes whether the output equals `output`, compared now.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> {
        Just<Bool>(self.output == output)
    }
}
