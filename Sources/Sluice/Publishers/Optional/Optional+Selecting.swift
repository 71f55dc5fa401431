// Combine's specialised overloads of the selecting operators on `Optional.Publisher`: whether the output, if
// any, is kept is decided when the operator is called (a predicate runs then, at most once, and not at all
// when the output is `nil`). A negative count or index traps, as the generic operators do.

extension Optional.Publisher {
    /// Returns `self`: the only element, if any, is the first.
    @inlinable
    public func first() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Tests the output, if any, now: the result publishes it if `predicate` holds.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Returns `self`: the only element, if any, is the last.
    @inlinable
    public func last() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Tests the output, if any, now: the result publishes it if `predicate` holds.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        first(where: predicate)
    }

    /// Publishes the output, if any, only when `count` is 0; a negative `count` traps.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Wrapped>.Publisher {
        if count < 0 { Violation.negativeCount(count, in: "dropFirst(_:)") }
        return Optional<Wrapped>.Publisher(count == 0 ? output : nil)
    }

    /// Tests the output, if any, now: the result publishes it unless `predicate` holds.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// Publishes the output, if any, only when `index` is 0, its position; a negative `index` traps.
    @inlinable
    public func output(at index: Int) -> Optional<Wrapped>.Publisher {
        if index < 0 { Violation.negativeCount(index, in: "output(at:)") }
        return Optional<Wrapped>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the output, if any, only when `range` contains 0, its position; a negative
    /// lower bound traps, and so does an upper bound of `Int.max - 1` or more (counted
    /// half-open: `0...(Int.max - 2)` too), as Combine's precondition does.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Wrapped>.Publisher where R.Bound == Int {
        let positions = range.relative(to: 0..<Int.max)
        if positions.lowerBound < 0 { Violation.negativeCount(positions.lowerBound, in: "output(in:)") }
        if positions.upperBound >= Int.max - 1 { Violation.outputRangeTooLarge(positions.upperBound) }
        return Optional<Wrapped>.Publisher(positions.contains(0) ? output : nil)
    }

    /// Publishes the output, if any, only when `maxLength` is positive; a negative `maxLength` traps.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Wrapped>.Publisher {
        if maxLength < 0 { Violation.negativeCount(maxLength, in: "prefix(_:)") }
        return Optional<Wrapped>.Publisher(maxLength > 0 ? output : nil)
    }

    /// Tests the output, if any, now: the result publishes it if `predicate` holds.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        first(where: predicate)
    }
}
