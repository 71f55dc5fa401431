/// A first-in, first-out queue in a ring of storage: append and popFirst are O(1), and once the ring has
/// grown to the most elements it held at once, it allocates no more.
@usableFromInline
package struct FIFO<Element> {
    /// A power of two slots (or none), `count` of them in use from `head` on, wrapping.
    @usableFromInline var storage: ContiguousArray<Element?> = []
    @usableFromInline var head = 0
    @usableFromInline package private(set) var count = 0

    @inlinable package init() {}

    @inlinable package var isEmpty: Bool { count == 0 }

    @inlinable
    package mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head &+ count) & (storage.count &- 1)] = element
        count &+= 1
    }

    @inlinable
    package mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head].take()
        head = (head &+ 1) & (storage.count &- 1)
        count &-= 1
        return element
    }

    /// The elements, oldest first (for a mirror; O(n)).
    package var elements: [Element] { (0..<count).map { storage[(head &+ $0) & (storage.count &- 1)]! } }

    /// The slots the ring has now (tests check that it stops growing).
    package var capacity: Int { storage.count }

    /// Doubles the ring (at least 8 slots), moving the elements to its start in order.
    @usableFromInline
    mutating func grow() {
        var grown = ContiguousArray<Element?>(repeating: nil, count: Swift.max(8, storage.count * 2))
        for index in 0..<count {
            grown[index] = storage[(head + index) & (storage.count - 1)].take()
        }
        storage = grown
        head = 0
    }
}

extension FIFO: Sendable where Element: Sendable {}
