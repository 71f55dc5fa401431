import Synchronization

/// Demand requested from a subscription and not yet taken by its emitter — and, with it, the
/// emitter role: the one thread at a time allowed to touch the subscription's delivery state
/// and call the subscriber.
///
/// This is the lock-free "drain loop" of demand-driven streams. Whoever moves the count away
/// from zero becomes the emitter and delivers; demand added meanwhile (from inside
/// `receive(_:)` or from another thread) only grows the count, and the emitter picks it up
/// when its own demand runs out. The emitter gives the role up by bringing the count back to
/// zero, so that signals are serial (rule 3) and recursion stays bounded (rule 5) without a
/// lock, and the atomic hand-over orders the emitters' accesses to the delivery state (the
/// role is given up with release ordering and taken with acquire ordering).
///
/// ```text
///   count == 0 ──add(d): caller becomes the emitter, emits d──▶ count == d
///        ▲                                                      │ add(e): count += e, no role
///        └── release(taken:), count == taken ◀──────────────────┤
///            (otherwise the emitter continues with count − taken)
///   `.unlimited` is sticky: once there, the emitter never runs out.
/// ```
///
/// To end the stream for good, the terminating side takes the role (or finds it taken) and
/// never releases it: the count then stays above zero and no one becomes the emitter again.
///
/// The emitter's loop, run by whoever `add(_:)` made the emitter:
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

    /// The emitter used up `taken` (what `add` or this method last returned). Returns the
    /// demand added meanwhile, to continue with, or nil when the role was given up.
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
