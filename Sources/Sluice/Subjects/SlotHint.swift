import Synchronization

/// Where a subscriber's entry sits in its subject's slots, kept by its conduit and receiver so that a
/// request, a cancel or a returning deliverer finds it without a search. Exact: ``absent`` before the entry
/// is added and once removed. Accessed only under the subject's lock, which orders every access; the atomic
/// (relaxed, as cheap as plain) makes it safe in a shared object without an unchecked escape.
@usableFromInline
struct SlotHint: ~Copyable, Sendable {
    @usableFromInline let storage = Atomic<Int>(absent)

    /// Not in the storage.
    @inlinable static var absent: Int { -1 }

    @inlinable init() {}

    @inlinable var value: Int {
        get { storage.load(ordering: .relaxed) }
        nonmutating set { storage.store(newValue, ordering: .relaxed) }
    }
}
