import Synchronization

/// The synchronous fast lane of `values` in its default, one-element-per-`next()` mode: for publishers that
/// deliver inside `request(_:)`, on the iterating thread (sequences, `Just`, a subject with a value ready),
/// it replaces the lock with one atomic word and a one-element slot:
///
/// ```text
///   idle ──iterator arms it, then requests .max(1)──▶ armed
///   armed ──receive(_:): writes the slot, then armed → filled──▶ filled
///   filled ──iterator (or cancel) takes the element──▶ idle
///   armed ──iterator settles it under the subscriber's lock──▶ idle (the demand is then
///           counted by the state machine, and the element takes the locked path)
///   any ──receive(completion:)──▶ the same, marked closed: it cannot be armed again, so no
///           `next()` requests after the completion
/// ```
///
/// Only the iterator arms the lane, only `receive(_:)` fills it, and every other transition
/// is one atomic exchange or compare-exchange, so exactly one side owns the slot at any time.
@usableFromInline
struct ValuesFastLane<Element>: ~Copyable, Sendable {
    @usableFromInline static var idle: UInt8 { 0 }
    @usableFromInline static var armed: UInt8 { 1 }
    @usableFromInline static var filled: UInt8 { 2 }
    /// A flag over the other states: the upstream completed.
    @usableFromInline static var closed: UInt8 { 4 }

    @usableFromInline let state = Atomic<UInt8>(0)
    @usableFromInline let slot: FastLaneSlot<Element>

    @inlinable
    init() { slot = FastLaneSlot() }

    deinit {
        if state.load(ordering: .acquiring) & ~Self.closed == Self.filled { _ = slot.pointer.move() }
        slot.pointer.deallocate()
    }

    /// Iterator side: about to request `.max(1)` through the lane. False once closed.
    @inlinable
    func arm() -> Bool {
        state.compareExchange(expected: Self.idle, desired: Self.armed, ordering: .acquiringAndReleasing).exchanged
    }

    /// Iterator side, right after the request: the element, if it was delivered meanwhile
    /// (and the lane is not closed: then ``settle()`` takes it).
    @inlinable
    func takeIfFilled() -> Element? {
        guard state.compareExchange(
            expected: Self.filled, desired: Self.idle, ordering: .acquiring).exchanged
        else { return nil }
        return slot.pointer.move()
    }

    /// Upstream side: hands `element` over if the lane is armed; otherwise gives it back for the locked path.
    @inlinable
    func offer(_ element: consuming Element) -> Element? {
        guard state.load(ordering: .acquiring) == Self.armed else { return element }
        slot.pointer.initialize(to: element)
        if state.compareExchange(
            expected: Self.armed, desired: Self.filled, ordering: .acquiringAndReleasing).exchanged
        {
            return nil
        }
        return slot.pointer.move()  // settled meanwhile: the locked path counts the demand
    }

    /// Upstream side: the completion arrived; the lane is never armed again.
    @inlinable
    func close() { state.bitwiseOr(Self.closed, ordering: .acquiringAndReleasing) }

    /// Under the subscriber's lock (or on cancel): brings the lane back to idle, keeping the closed mark.
    /// Returns whether it was still armed (its demand is outstanding) and the element, if one was waiting.
    @inlinable
    func settle() -> (wasArmed: Bool, element: Element?) {
        switch state.bitwiseAnd(Self.closed, ordering: .acquiringAndReleasing).oldValue & ~Self.closed {
        case Self.filled: return (false, slot.pointer.move())
        case Self.armed: return (true, nil)
        default: return (false, nil)
        }
    }
}

/// The lane's one-element slot. Safe to mark Sendable: only the side that owns it in the ``ValuesFastLane``
/// protocol reads or writes it (the upstream between observing `armed` and publishing `filled`, then whoever
/// moves `filled` back to `idle`), and the lane's atomic transitions order those accesses.
@usableFromInline
struct FastLaneSlot<Element>: @unchecked Sendable {
    @usableFromInline let pointer: UnsafeMutablePointer<Element>
    @inlinable init() { pointer = .allocate(capacity: 1) }
}
