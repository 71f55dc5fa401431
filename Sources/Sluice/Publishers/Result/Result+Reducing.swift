// Combine's specialised overloads of the reducing and selecting operators on `Result.Publisher`: over at most
// one element the result is known at once, so it is computed when the operator is called (a closure runs
// then, at most once, and not at all for a failure, which passes through). A `try` form's result fails with
// the error its closure threw.

extension Result.Publisher {
    /// Publishes the success in a one-element array; a failure passes through.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// Publishes 1 for a success; a failure passes through.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// Combines `initialResult` with the success, if any, now and publishes it; a failure passes through.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Combines `initialResult` with the success, if any, now: the result publishes the
    /// accumulated value, or fails with the error the closure threw or the original failure.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(result.tryMapSuccess { try nextPartialResult(initialResult, $0) })
    }

    /// Returns `self`: the only element, if any, is the smallest; `areInIncreasingOrder` is not called.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Returns `self`: the only element, if any, is the largest; `areInIncreasingOrder` is not called.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Calls `areInIncreasingOrder` once now, with the success as both arguments, so that an error it throws
    /// fails the result; otherwise the success or the original failure is published.
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(result.tryCheckingSuccess(areInIncreasingOrder))
    }

    /// Calls `areInIncreasingOrder` once now, with the success as both arguments, so that an error it throws
    /// fails the result; otherwise the success or the original failure is published.
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        tryMin(by: areInIncreasingOrder)
    }

    /// Tests the success, if any, now, and publishes whether `predicate` holds; a failure passes through.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Tests the success, if any, now: the result publishes whether `predicate` holds, or
    /// fails with the error it threw or the original failure.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(result.tryMapSuccess(predicate))
    }

    /// Tests the success, if any, now, and publishes whether `predicate` holds; a failure passes through.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        contains(where: predicate)
    }

    /// Tests the success, if any, now: the result publishes whether `predicate` holds, or
    /// fails with the error it threw or the original failure.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        tryContains(where: predicate)
    }

    /// A publisher that finishes at once without a value.
    ///
    /// Combine's overload returns `Empty`, which cannot fail: a failure is dropped and the result finishes.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty<Output, Failure>()
    }

    /// Returns `self`: the only element, if any, is the first.
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher {
        self
    }

    /// Returns `self`: the only element, if any, is the last.
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Output: Comparable {
    /// Returns `self`: the only element, if any, is the smallest.
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher {
        self
    }

    /// Returns `self`: the only element, if any, is the largest.
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Output: Equatable {
    /// Publishes whether the success equals `output`, compared now; a failure passes through.
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }
}
