import Synchronization

/// Where a subscriber's entry sits in its subject's slots (``SubjectStorage/State``), kept by
/// its conduit and its receiver so that a request, a cancel or a deliverer coming back finds the
/// entry without a search.
///
/// Written and read only under the subject's lock, which orders every access: the atomic makes
/// the field safe to keep in a shared object without an unchecked escape, and relaxed loads and
/// stores cost what plain ones do. It is a hint: the lookup checks that the slot holds its entry
/// (a removed entry leaves its hint behind).
@usableFromInline
struct SlotHint: ~Copyable, Sendable {
    @usableFromInline let storage = Atomic<Int>(0)

    @inlinable init() {}

    @inlinable var value: Int {
        get { storage.load(ordering: .relaxed) }
        nonmutating set { storage.store(newValue, ordering: .relaxed) }
    }
}
