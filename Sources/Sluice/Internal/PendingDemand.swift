import Synchronization

/// Demand requested from a subscription and not yet taken by its emitter — and with it the emitter role:
/// the one thread at a time allowed to touch the subscription's delivery state and call the subscriber.
///
/// A lock-free drain loop: whoever moves the count away from zero becomes the emitter; demand added
/// meanwhile (from `receive(_:)` or another thread) only grows the count, which the emitter picks up when
/// its own runs out, and it gives the role up by bringing the count back to zero. So signals are serial
/// (rule 3) and recursion is bounded (rule 5) without a lock; the role is given up with release ordering
/// and taken with acquire ordering, which orders the emitters' accesses to the delivery state.
///
/// ```text
///   count == 0 ──add(d): caller becomes the emitter, emits d──▶ count == d
///        ▲                                                      │ add(e): count += e, no role
///        └── release(taken:), count == taken ◀──────────────────┤
///            (otherwise the emitter continues with count − taken)
///   `.unlimited` is sticky: once there, the emitter never runs out.
/// ```
///
/// To end the stream for good, the terminating side takes the role (or finds it taken) and never releases
/// it: the count stays above zero and no one becomes the emitter again. The emitter's loop:
///
/// <!-- snippet: PendingDemandEmitterLoop -->
/// ```swift
/// var next = pending.add(.max(2))   // .max(2): this caller became the emitter
/// while let demand = next {
///     emit(demand)                  // an add(_:) meanwhile only grows the count
///     next = pending.release(taken: demand)
/// }
/// ```
@usableFromInline
struct PendingDemand: ~Copyable, Sendable {
    /// `Subscribers.Demand.rawValue`: `unlimitedRaw` stands for `.unlimited`.
    @usableFromInline let raw = Atomic<UInt>(0)

    @inlinable init() {}

    /// Adds `demand`. Returns the demand to emit if the caller became the emitter, else nil.
    @inlinable @inline(__always)
    func add(_ demand: Subscribers.Demand) -> Subscribers.Demand? {
        var current = raw.load(ordering: .relaxed)
        while true {
            let sum = (Subscribers.Demand(rawValue: current) + demand).rawValue
            let (exchanged, original) = raw.compareExchange(
                expected: current, desired: sum, ordering: .acquiringAndReleasing)
            if exchanged { return original == 0 ? Subscribers.Demand(rawValue: sum) : nil }
            current = original
        }
    }

    /// The emitter used up `taken` (what `add` or this method last returned): the demand added meanwhile, to
    /// continue with, or nil when the role was given up.
    @inlinable @inline(__always)
    func release(taken: Subscribers.Demand) -> Subscribers.Demand? {
        var current = raw.load(ordering: .relaxed)
        while true {
            if current == Subscribers.Demand.unlimitedRaw { return .unlimited }
            let remaining = current - taken.rawValue
            let (exchanged, original) = raw.compareExchange(
                expected: current, desired: remaining, ordering: .acquiringAndReleasing)
            if exchanged { return remaining == 0 ? nil : Subscribers.Demand(rawValue: remaining) }
            current = original
        }
    }
}
