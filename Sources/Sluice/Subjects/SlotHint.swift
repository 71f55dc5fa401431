import Synchronization

/// Where a subscriber's entry sits in its subject's slots (``SubjectStorage/State``), kept by
/// its conduit and its receiver so that a request, a cancel or a deliverer coming back finds the
/// entry without a search, and without reading it.
///
/// Exact: the slot while the entry is in the storage, ``absent`` before it is added and once it
/// is removed (the storage keeps it so whenever it adds, moves or removes an entry, and a
/// state machine when it drops its receiver). Written and read only under the subject's lock,
/// which orders every access: the atomic makes the field safe to keep in a shared object
/// without an unchecked escape, and relaxed loads and stores cost what plain ones do.
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
