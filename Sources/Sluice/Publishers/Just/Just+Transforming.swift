// Combine's specialised overloads of the transforming and error operators on `Just`, which win over the
// generic ones (`Just(1).map { $0 + 1 }` is a `Just<Int>`): each applies its closure (never kept) to `output`
// when it is called and returns the publisher of the outcome: a `Just`, or an `Optional`/`Result` publisher
// when the outcome may be empty or a failure.

extension Just {
    /// Applies `transform` to the output now, once, and publishes the result.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> {
        Just<T>(transform(output))
    }

    /// Applies `transform` to the output now, once: publishes its value, or fails with the error it threw.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try transform(output) })
    }

    /// Applies `transform` to the output now, once: the result publishes its value, or
    /// finishes without one when the closure returns `nil`.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }

    /// Tests the output now, once: publishes it if `isIncluded` holds, or finishes without a value.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// Gives the output a failure type; `transform` is never called, as `Just` cannot fail.
    @inlinable
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(output))
    }

    /// Gives the output the failure type `E`; the result never fails.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(output))
    }

    /// Publishes the one partial result: `initialResult` combined with the output now, once.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        reduce(initialResult, nextPartialResult)
    }

    /// Combines `initialResult` with the output now, once: the result publishes the partial
    /// result, or fails with the error the closure threw.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        tryReduce(initialResult, nextPartialResult)
    }

    /// Returns `self`: one element has no duplicate.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Calls `predicate` once now, with the output as both arguments, so that an error it throws fails the
    /// result; otherwise the result publishes the output (one element has no duplicate).
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(Result<Output, Never>.success(output).tryCheckingSuccess(predicate))
    }

    /// Returns `self`: `Just` never fails, so there is no error to replace.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> {
        self
    }

    /// Returns `self`: `Just` is never empty.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> {
        self
    }

    /// Returns `self`: `Just` never fails, so there is nothing to retry.
    @inlinable
    public func retry(_ retries: Int) -> Just<Output> {
        self
    }
}

extension Just where Output: Equatable {
    /// Returns `self`: one element has no duplicate.
    @inlinable
    public func removeDuplicates() -> Just<Output> {
        self
    }
}
