/// One upstream's values inside a ``JoinRow``: what `zip` and `combineLatest` differ in.
@usableFromInline
protocol JoinColumn {
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
struct QueueColumn<Element>: JoinColumn {
    @usableFromInline var queue = FIFO<Element>()
    @inlinable static var consumes: Bool { true }
    @inlinable init() {}
    @inlinable var hasValue: Bool { !queue.isEmpty }
    @inlinable mutating func put(_ element: Element) { queue.append(element) }
    @inlinable mutating func take() -> Element { queue.popFirst()! }
}

/// `combineLatest`'s column: the latest value, kept after it is combined.
@usableFromInline
struct LatestColumn<Element>: JoinColumn {
    @usableFromInline var latest: Element?
    @inlinable static var consumes: Bool { false }
    @inlinable init() {}
    @inlinable var hasValue: Bool { latest != nil }
    @inlinable mutating func put(_ element: Element) { latest = element }
    @inlinable mutating func take() -> Element { latest! }
}

/// The values of every upstream of a `zip` or `combineLatest`, one column each, typed, so that
/// a combination is a tuple built with no boxing. A value arrives as a generic `T` with its
/// column's index; once specialised, the cast to the column's element type is the identity.
@usableFromInline
protocol JoinRow {
    associatedtype Output
    static var arity: Int { get }
    static var consumes: Bool { get }
    init()
    /// Every column has a value: a combination can be made.
    var isFull: Bool { get }
    func isEmpty(at index: Int) -> Bool
    mutating func store<T>(_ value: T, at index: Int)
    mutating func take() -> Output
}

@usableFromInline
struct JoinRow2<A: JoinColumn, B: JoinColumn>: JoinRow {
    @usableFromInline var a = A(), b = B()
    @inlinable static var arity: Int { 2 }
    @inlinable static var consumes: Bool { A.consumes }
    @inlinable init() {}
    @inlinable var isFull: Bool { a.hasValue && b.hasValue }
    @inlinable func isEmpty(at index: Int) -> Bool { index == 0 ? !a.hasValue : !b.hasValue }
    @inlinable mutating func store<T>(_ value: T, at index: Int) {
        if index == 0 { a.put(value as! A.Element) } else { b.put(value as! B.Element) }
    }
    @inlinable mutating func take() -> (A.Element, B.Element) { (a.take(), b.take()) }
}

@usableFromInline
struct JoinRow3<A: JoinColumn, B: JoinColumn, C: JoinColumn>: JoinRow {
    @usableFromInline var a = A(), b = B(), c = C()
    @inlinable static var arity: Int { 3 }
    @inlinable static var consumes: Bool { A.consumes }
    @inlinable init() {}
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
struct JoinRow4<A: JoinColumn, B: JoinColumn, C: JoinColumn, D: JoinColumn>: JoinRow {
    @usableFromInline var a = A(), b = B(), c = C(), d = D()
    @inlinable static var arity: Int { 4 }
    @inlinable static var consumes: Bool { A.consumes }
    @inlinable init() {}
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
