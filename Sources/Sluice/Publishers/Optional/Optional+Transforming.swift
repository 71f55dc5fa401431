// Combine's specialised overloads of the transforming and error operators on `Optional.Publisher`: each one
// works on `output` at once, when it is called (a closure runs then, at most once, and not at all when
// `output` is `nil`), and returns the publisher of the outcome instead of an operator wrapping `self`. As
// members of `Optional.Publisher` they win over the generic operators on `Publisher`.

extension Optional.Publisher {
    /// Applies `transform` to the output, if any, now, and publishes the result; `nil` stays `nil`.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// Applies `transform` to the output, if any, now: the result publishes its value, or
    /// finishes without one when there is no output or the closure returns `nil`.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// Tests the output, if any, now: publishes it if `isIncluded` holds, or finishes without a value.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Combines `initialResult` with the output, if any, now, and publishes the one partial
    /// result; with no output it publishes nothing (not even `initialResult`).
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        reduce(initialResult, nextPartialResult)
    }

    /// Returns `self`: one element has no duplicate; `predicate` is not called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns `self`: this publisher never fails, so there is no error to replace.
    @inlinable
    public func replaceError(with output: Output) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Publishes the output, or `output` when there is none.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> {
        Just<Output>(self.output ?? output)
    }

    /// Returns `self`: this publisher never fails, so there is nothing to retry.
    @inlinable
    public func retry(_ retries: Int) -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher where Wrapped: Equatable {
    /// Returns `self`: one element has no duplicate.
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher {
        self
    }
}
