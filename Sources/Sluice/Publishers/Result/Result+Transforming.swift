// Combine's specialised overloads of the transforming and error operators on `Result.Publisher`, which win
// over the generic operators: each works on `result` when it is called (a closure runs then, at most once,
// and not for a failure, which passes through) and returns the publisher of the outcome. A `try` form's
// result fails with the error its closure threw.

extension Result {
    /// Maps a success with a closure that can throw; a failure, or what the closure threw,
    /// becomes the new result's `any Error` failure. Used by the `try` overloads.
    @inlinable
    func tryMapSuccess<T>(_ transform: (Success) throws -> T) -> Result<T, any Error> {
        switch self {
        case .success(let value): Result<T, any Error> { try transform(value) }
        case .failure(let failure): .failure(failure)
        }
    }

    /// Calls `predicate` with the success as both arguments, only so that an error it throws
    /// fails the new result; the `try` overloads whose closure compares two elements use it.
    @inlinable
    func tryCheckingSuccess(_ predicate: (Success, Success) throws -> Bool) -> Result<Success, any Error> {
        tryMapSuccess { value in
            _ = try predicate(value, value)
            return value
        }
    }
}

extension Result.Publisher {
    /// Applies `transform` to the success, if any, now, and publishes the result; a failure passes through.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// Applies `transform` to the success, if any, now: the result publishes its value, or
    /// fails with the error the closure threw or the original failure.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(result.tryMapSuccess(transform))
    }

    /// Applies `transform` to the failure, if any, now; a success passes through.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    /// Publishes the one partial result, `initialResult` combined with the success; a failure passes through.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        reduce(initialResult, nextPartialResult)
    }

    /// Combines `initialResult` with the success, if any, now: the result publishes the
    /// partial result, or fails with the error the closure threw or the original failure.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        tryReduce(initialResult, nextPartialResult)
    }

    /// Returns `self`: one element has no duplicate; `predicate` is not called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Calls `predicate` once now, with the success as both arguments, so that an error it
    /// throws fails the result; otherwise the success or the original failure is published.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(result.tryCheckingSuccess(predicate))
    }

    /// Publishes the success, or `output` in place of a failure; the result never fails.
    @inlinable
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        switch result {
        case .success(let value): Result<Output, Never>.Publisher(.success(value))
        case .failure: Result<Output, Never>.Publisher(.success(output))
        }
    }

    /// Returns `self`: a success is never empty, and a failure is not replaced.
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Returns `self`: the failure, if any, would recur on every attempt.
    @inlinable
    public func retry(_ retries: Int) -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Output: Equatable {
    /// Returns `self`: one element has no duplicate.
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Failure == Never {
    /// Gives the success the failure type `E`; the result never fails.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(result.get()))
    }
}
