// Combine's specialised overloads of the transforming and filtering operators on `Publishers.Sequence`: each
// applies its closure to every element now, when it is called (once per element, before anyone subscribes;
// an endless sequence never returns), and returns a publisher of the resulting array instead of an operator
// wrapping `self`. As members they win over the generic operators: `[1, 2].publisher.map { $0 + 1 }` is a
// `Publishers.Sequence<[Int], Never>`.

extension Publishers.Sequence {
    /// Transforms every element now, in order, and publishes the results.
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// Transforms every element now, in order, and publishes the non-`nil` results.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Tests every element now, in order, and publishes those for which `isIncluded` holds.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Replaces every `nil` element with `output` now; the elements stay optional, as in Combine's overload.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Computes every partial result now, in order, starting from `initialResult`, and
    /// publishes them. The closure is not kept, though its type says `@escaping`.
    @inlinable
    public func scan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Sequence<[T], Failure> {
        var partial = initialResult
        var results: [T] = []
        results.reserveCapacity(sequence.underestimatedCount)
        for element in sequence {
            partial = nextPartialResult(partial, element)
            results.append(partial)
        }
        return Publishers.Sequence<[T], Failure>(sequence: results)
    }

    /// Publishes the same sequence with the failure type `E`; it never fails.
    @inlinable
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Drops every element equal to the one before it, now, and publishes the rest.
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
        var kept: [Output] = []
        for element in sequence where kept.last != element {
            kept.append(element)
        }
        return Publishers.Sequence<[Output], Failure>(sequence: kept)
    }
}
