// Combine's specialised overloads of the reducing operators on `Publishers.Sequence`: the result is computed
// when the operator is called, iterating the sequence once (an endless one never returns), and published by a
// `Result`, an `Optional` (`Failure == Never`: nothing when there is no such element) or a `Just` publisher.
// A `try` form's result fails with the error its closure threw; iteration stops there.

extension Publishers.Sequence {
    /// Publishes all the elements in one array.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(.success(Array(sequence)))
    }

    /// Accumulates every element now, in order, and publishes the result (`initialResult`
    /// for an empty sequence). The closure is not kept, though its type says `@escaping`.
    @inlinable
    public func reduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(.success(sequence.reduce(initialResult, nextPartialResult)))
    }

    /// Accumulates every element now, in order: the result publishes the accumulated value,
    /// or fails with the first error the closure throws. The closure is not kept.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// Tests the elements now, in order, up to the first that satisfies `predicate`; publishes whether one did.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(where: predicate)))
    }

    /// Tests the elements now, in order, up to the first that satisfies `predicate`: the
    /// result publishes whether there was one, or fails with the first error it throws.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// Tests the elements now, in order, up to the first that fails `predicate`, and
    /// publishes whether all passed (`true` for an empty sequence).
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.allSatisfy(predicate)))
    }

    /// Tests the elements now, in order, up to the first that fails `predicate`: the result
    /// publishes whether all passed, or fails with the first error it throws.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// A publisher that finishes at once; the sequence is not iterated.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty<Output, Failure>()
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Searches the elements now, up to the first equal to `output`, and publishes whether there was one.
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(output)))
    }
}

extension Publishers.Sequence where Failure == Never {
    /// Publishes the smallest element by `areInIncreasingOrder`, found now (first of equals); nothing if empty.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// Publishes the largest element by `areInIncreasingOrder`, found now, or nothing for an empty sequence.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.max(by: areInIncreasingOrder))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// Publishes the smallest element, found now, or nothing for an empty sequence.
    @inlinable
    public func min() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.min())
    }

    /// Publishes the largest element, found now, or nothing for an empty sequence.
    @inlinable
    public func max() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Publishes the number of elements, counted now.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(.success(sequence.count))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// Publishes the number of elements, taken now.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(.success(sequence.count))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Publishes the number of elements, taken now.
    @inlinable
    public func count() -> Just<Int> {
        Just<Int>(sequence.count)
    }
}
