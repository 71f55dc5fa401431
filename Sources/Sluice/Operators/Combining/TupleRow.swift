/// One upstream's values inside a ``TupleRow``: what `zip` and `combineLatest` differ in.
@usableFromInline
package protocol TupleColumn {
    associatedtype Element
    /// `zip` (`true`) takes each value once; `combineLatest` (`false`) keeps the latest.
    static var consumes: Bool { get }
    init()
    var hasValue: Bool { get }
    mutating func put(_ element: Element)
    mutating func take() -> Element
}

/// `zip`'s column: the values that no other upstream has matched yet, oldest first.
@usableFromInline
package struct QueueColumn<Element>: TupleColumn {
    @usableFromInline var queue = FIFO<Element>()
    @inlinable package static var consumes: Bool { true }
    @inlinable package init() {}
    @inlinable package var hasValue: Bool { !queue.isEmpty }
    @inlinable package mutating func put(_ element: Element) { queue.append(element) }
    @inlinable package mutating func take() -> Element { queue.popFirst()! }
}

/// `combineLatest`'s column: the latest value, kept after it is combined.
@usableFromInline
package struct LatestColumn<Element>: TupleColumn {
    @usableFromInline var latest: Element?
    @inlinable package static var consumes: Bool { false }
    @inlinable package init() {}
    @inlinable package var hasValue: Bool { latest != nil }
    @inlinable package mutating func put(_ element: Element) { latest = element }
    @inlinable package mutating func take() -> Element { latest! }
}

/// The values of every upstream of a `zip` or `combineLatest`, one column each, typed, so that
/// a combination is a tuple built with no boxing. A value arrives as a generic `T` with its
/// column's index; once specialised, the cast to the column's element type is the identity.
@usableFromInline
package protocol TupleRow {
    associatedtype Output
    /// How many upstreams (columns) there are.
    var arity: Int { get }
    static var consumes: Bool { get }
    /// Drops every value held (on cancel and at the end), keeping the arity.
    mutating func clear()
    /// Every column has a value: a combination can be made.
    var isFull: Bool { get }
    func isEmpty(at index: Int) -> Bool
    mutating func store<T>(_ value: T, at index: Int)
    mutating func take() -> Output
}

@usableFromInline
struct TupleRow2<A: TupleColumn, B: TupleColumn>: TupleRow {
    @usableFromInline var a = A(), b = B()
    @inlinable var arity: Int { 2 }
    @inlinable static var consumes: Bool { A.consumes }
    @inlinable init() {}
    @inlinable mutating func clear() { self = Self() }
    @inlinable var isFull: Bool { a.hasValue && b.hasValue }
    @inlinable func isEmpty(at index: Int) -> Bool { index == 0 ? !a.hasValue : !b.hasValue }
    @inlinable mutating func store<T>(_ value: T, at index: Int) {
        if index == 0 { a.put(value as! A.Element) } else { b.put(value as! B.Element) }
    }
    @inlinable mutating func take() -> (A.Element, B.Element) { (a.take(), b.take()) }
}

@usableFromInline
struct TupleRow3<A: TupleColumn, B: TupleColumn, C: TupleColumn>: TupleRow {
    @usableFromInline var a = A(), b = B(), c = C()
    @inlinable var arity: Int { 3 }
    @inlinable static var consumes: Bool { A.consumes }
    @inlinable init() {}
    @inlinable mutating func clear() { self = Self() }
    @inlinable var isFull: Bool { a.hasValue && b.hasValue && c.hasValue }
    @inlinable func isEmpty(at index: Int) -> Bool {
        switch index {
        case 0: !a.hasValue
        case 1: !b.hasValue
        default: !c.hasValue
        }
    }
    @inlinable mutating func store<T>(_ value: T, at index: Int) {
        switch index {
        case 0: a.put(value as! A.Element)
        case 1: b.put(value as! B.Element)
        default: c.put(value as! C.Element)
        }
    }
    @inlinable mutating func take() -> (A.Element, B.Element, C.Element) { (a.take(), b.take(), c.take()) }
}

@usableFromInline
struct TupleRow4<A: TupleColumn, B: TupleColumn, C: TupleColumn, D: TupleColumn>: TupleRow {
    @usableFromInline var a = A(), b = B(), c = C(), d = D()
    @inlinable var arity: Int { 4 }
    @inlinable static var consumes: Bool { A.consumes }
    @inlinable init() {}
    @inlinable mutating func clear() { self = Self() }
    @inlinable var isFull: Bool { a.hasValue && b.hasValue && c.hasValue && d.hasValue }
    @inlinable func isEmpty(at index: Int) -> Bool {
        switch index {
        case 0: !a.hasValue
        case 1: !b.hasValue
        case 2: !c.hasValue
        default: !d.hasValue
        }
    }
    @inlinable mutating func store<T>(_ value: T, at index: Int) {
        switch index {
        case 0: a.put(value as! A.Element)
        case 1: b.put(value as! B.Element)
        case 2: c.put(value as! C.Element)
        default: d.put(value as! D.Element)
        }
    }
    @inlinable mutating func take() -> (A.Element, B.Element, C.Element, D.Element) {
        (a.take(), b.take(), c.take(), d.take())
    }
}

/// The values of any number of upstreams of one type, one column each: the row of
/// `combineLatest()` and `zip()` over a collection of publishers (SluiceExt), whose
/// combination is an array. It counts the columns without a value, so that a value costs the
/// same whatever the arity; only making the array is proportional to it.
@usableFromInline
package struct TupleRowMany<Column: TupleColumn>: TupleRow {
    @usableFromInline var columns: [Column]
    /// How many columns have no value.
    @usableFromInline var missing: Int

    /// A row of `arity` empty columns.
    @inlinable
    package init(arity: Int) {
        columns = Array(repeating: Column(), count: arity)
        missing = arity
    }

    @inlinable package var arity: Int { columns.count }
    @inlinable package static var consumes: Bool { Column.consumes }
    @inlinable package mutating func clear() { self = Self(arity: arity) }
    @inlinable package var isFull: Bool { missing == 0 }
    @inlinable package func isEmpty(at index: Int) -> Bool { !columns[index].hasValue }

    @inlinable
    package mutating func store<T>(_ value: T, at index: Int) {
        if !columns[index].hasValue { missing -= 1 }
        columns[index].put(value as! Column.Element)
    }

    @inlinable
    package mutating func take() -> [Column.Element] {
        var combination: [Column.Element] = []
        combination.reserveCapacity(columns.count)
        for index in columns.indices {
            combination.append(columns[index].take())
            if !columns[index].hasValue { missing += 1 }
        }
        return combination
    }
}
