/// The inner subscriptions of a flattening operator, by key: a slab of slots whose places are
/// reused, so that adding, finding and removing an inner is an array access (no hashing), which
/// `flatMap` does several times per value.
///
/// A key is a place and the generation of its occupant (`generation << 32 | place`): a key
/// kept by an inner that has ended (a misbehaving publisher signalling after its completion)
/// never finds the inner that took its place next.
@usableFromInline
struct InnerSlots {
    @usableFromInline
    struct Entry {
        @usableFromInline var generation: Int
        @usableFromInline var slot: SubscriptionSlot?
        @inlinable init(generation: Int, slot: SubscriptionSlot?) {
            self.generation = generation
            self.slot = slot
        }
    }

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var free: [Int] = []
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { count == 0 }

    /// Takes a place for a new inner, awaiting its subscription; returns its key.
    @inlinable
    mutating func reserve() -> Int {
        count += 1
        if let place = free.popLast() {
            entries[place].generation &+= 1
            entries[place].slot = .awaiting
            return Self.key(place, entries[place].generation)
        }
        entries.append(Entry(generation: 0, slot: .awaiting))
        return Self.key(entries.count - 1, 0)
    }

    /// The slot of the inner with `key`, if it has not been removed.
    @inlinable
    subscript(key: Int) -> SubscriptionSlot? {
        guard let place = place(of: key) else { return nil }
        return entries[place].slot
    }

    /// Attaches the subscription of the inner with `key`; `false` if that inner was removed or
    /// already has one.
    @inlinable
    mutating func attach(_ subscription: any Subscription, at key: Int) -> Bool {
        guard let place = place(of: key) else { return false }
        return entries[place].slot!.attach(subscription)
    }

    /// Removes the inner with `key`; returns its slot, or `nil` if it was not there.
    @inlinable
    mutating func remove(_ key: Int) -> SubscriptionSlot? {
        guard let place = place(of: key), let slot = entries[place].slot else { return nil }
        entries[place].slot = nil
        free.append(place)
        count -= 1
        return slot
    }

    /// The subscriptions of the inners that have one.
    @inlinable
    var subscriptions: [any Subscription] {
        entries.compactMap { $0.slot?.current }
    }

    @inlinable
    static func key(_ place: Int, _ generation: Int) -> Int {
        (generation & 0x7FFF_FFFF) << 32 | place
    }

    @inlinable
    func place(of key: Int) -> Int? {
        let place = key & 0xFFFF_FFFF
        guard place < entries.count, entries[place].slot != nil,
            Self.key(place, entries[place].generation) == key
        else { return nil }
        return place
    }
}
