// Combine's specialised overloads of the selecting operators on `Publishers.Sequence`: `dropFirst(_:)`,
// `drop(while:)` and `prefix(_:)` wrap the sequence in the standard library's lazy views (`drop(while:)` runs
// its predicate now, up to the first element it keeps); `prefix(while:)` and `output(in:)` build an array
// now. `first`, `last` and `output(at:)` (`Failure == Never`) find their element now and publish it by an
// `Optional` publisher, which finishes without a value when there is none.

extension Publishers.Sequence {
    /// Publishes the elements after the first `count`; a negative `count` traps. Nothing is iterated now.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        if count < 0 { Violation.negativeCount(count, in: "dropFirst(_:)") }
        return Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// Publishes the elements from the first that fails `predicate` on, which is found now.
    @inlinable
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// Publishes at most the first `maxLength` elements; a negative `maxLength` traps.
    /// Nothing is iterated now, so this works on an endless sequence.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        if maxLength < 0 { Violation.negativeCount(maxLength, in: "prefix(_:)") }
        return Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// Publishes the elements before the first that fails `predicate`, collected now.
    @inlinable
    public func prefix(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
    }
}

extension Publishers.Sequence where Failure == Never {
    /// Publishes the first element that satisfies `predicate`, searched for now, or nothing.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// Publishes the first element, or nothing for an empty collection.
    @inlinable
    public func first() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first)
    }

    /// Publishes the element at `index`, or nothing when `index` is not among the collection's
    /// `indices` (which it asks, as Combine's does: O(1) for most random-access collections).
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.publishedElement(at: index))
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Publishes the elements at the indices in `range`, copied now. A range that reaches
    /// outside the collection traps, as slicing the collection does (and Combine's does).
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.publishedElements(in: range))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// Publishes the last element, or nothing for an empty collection.
    @inlinable
    public func last() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last)
    }

    /// Publishes the last element that satisfies `predicate`, searched for now from the end, or nothing.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Publishes the element at `index`, or nothing when `index` is not among the collection's
    /// `indices` (which it asks, as Combine's does: O(1) for most random-access collections).
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.publishedElement(at: index))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// Publishes the elements at the indices in `range`, copied now. A range that reaches
    /// outside the collection traps, as slicing the collection does (and Combine's does).
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.publishedElements(in: range))
    }
}

extension Collection {
    /// The element at `index`, or `nil` when it is not among `indices`, with Combine's calls to the collection.
    @inlinable
    func publishedElement(at index: Index) -> Element? {
        indices.contains(index) ? self[index] : nil
    }

    /// The elements in `range`, copied (the slice traps outside the collection).
    @inlinable
    func publishedElements(in range: Range<Index>) -> [Element] {
        Array(self[range])
    }
}
