// Combine's specialised `prepend` and `append` on `Publishers.Sequence` over a `RangeReplaceableCollection`:
// the elements are joined now into one collection of the same type, not two concatenated publishers.

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// Publishes `elements`, then this sequence's elements, from one collection built now.
    @inlinable
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// Publishes `elements` (iterated once, here), then this sequence's elements, from one collection
    /// built now: as Combine's does, it makes an empty collection, reserves room for both (`count` and
    /// `underestimatedCount`) and appends each, so a custom collection sees the same calls.
    @inlinable
    public func prepend<S: Swift.Sequence>(
        _ elements: S
    ) -> Publishers.Sequence<Elements, Failure> where Elements.Element == S.Element {
        var joined = Elements()
        joined.reserveCapacity(sequence.count + elements.underestimatedCount)
        joined.append(contentsOf: elements)
        joined.append(contentsOf: sequence)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// Publishes `publisher`'s elements, then this sequence's: as in Combine, this sequence is appended
    /// now to a copy of `publisher`'s (a collection with reference semantics, in place).
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        var joined = publisher.sequence
        joined.append(contentsOf: sequence)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// Publishes this sequence's elements, then `elements`, from one collection built now.
    @inlinable
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// Publishes this sequence's elements, then `elements` (iterated once, here), from one collection built now.
    @inlinable
    public func append<S: Swift.Sequence>(
        _ elements: S
    ) -> Publishers.Sequence<Elements, Failure> where Elements.Element == S.Element {
        var joined = sequence
        joined.append(contentsOf: elements)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// Publishes this sequence's elements, then `publisher`'s elements, from one collection built now.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
