// Combine's specialised overloads of the selecting and sequencing operators on `Just`: whether the element is
// kept is decided when the operator is called (a predicate runs then, once); the result is a `Just` or an
// `Optional` publisher. A negative count or index traps, as the generic operators do.

extension Just {
    /// Returns `self`: the only element is the first.
    @inlinable
    public func first() -> Just<Output> {
        self
    }

    /// Tests the output now, once: the result publishes it if `predicate` holds, or finishes without a value.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// Returns `self`: the only element is the last.
    @inlinable
    public func last() -> Just<Output> {
        self
    }

    /// Tests the output now, once: the result publishes it if `predicate` holds, or finishes without a value.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        first(where: predicate)
    }

    /// Publishes the output only when `count` is 0; a negative `count` traps.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        if count < 0 { Violation.negativeCount(count, in: "dropFirst(_:)") }
        return Optional<Output>.Publisher(count == 0 ? output : nil)
    }

    /// Tests the output now, once: the result publishes it unless `predicate` holds.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }

    /// Publishes the output only when `index` is 0, its position; a negative `index` traps.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        if index < 0 { Violation.negativeCount(index, in: "output(at:)") }
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the output only when `range` starts at 0, its position, as Combine's own overload does: an
    /// empty range starting at 0 (`0..<0`) publishes the output too, and a range starting below 0 publishes
    /// nothing and does not trap, unlike the generic `output(in:)`.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// Publishes the output only when `maxLength` is positive; a negative `maxLength` traps.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        if maxLength < 0 { Violation.negativeCount(maxLength, in: "prefix(_:)") }
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// Tests the output now, once: the result publishes it if `predicate` holds, or finishes without a value.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        first(where: predicate)
    }

    /// Publishes `elements`, then the output, from one array built now.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        prepend(elements)
    }

    /// Publishes `elements`, then the output, from one array built now (`elements` is iterated once, here,
    /// after room is reserved from its `underestimatedCount`, as Combine's does).
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        Publishers.Sequence(sequence: elements + [output])
    }

    /// Publishes the output, then `elements`, from one array built now.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        append(elements)
    }

    /// Publishes the output, then `elements`, from one array built now (`elements` is iterated once, here).
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        var all = [output]
        all.append(contentsOf: elements)
        return Publishers.Sequence(sequence: all)
    }
}
