import Synchronization

/// Lets a subscriber (a sink, a `TaskSubscriber`) release its user closures the moment it terminates, while
/// values are delivered without a lock. It calls its closures between ``enter()`` and ``exit()``;
/// ``terminate()`` and ``enterFinal()`` end it. The state counts the deliveries in progress (nested ones
/// too: a closure may re-enter its subscriber) next to a terminated and a released bit:
///
/// ```text
/// open(n) ──terminate──▶ terminated(n) ──the delivery that brings n to 0 exits──▶ released
///    └──────────────────terminate with n == 0─────────────────────────────────────────▲
/// ```
///
/// Exactly one caller is told to release (`true`): whoever makes the transition to "terminated with no
/// delivery in progress". So a cancel from another thread never frees a closure while it runs; the delivery
/// frees it on its way out. A delivery that enters after the termination calls nothing. A Sluice subject's
/// deliveries skip the gate: the sink's cancel asks the subject instead (``DeferredCancelSubscription``).
@usableFromInline
struct TerminationGate: ~Copyable {
    @usableFromInline static var terminated: Int { 1 }
    @usableFromInline static var released: Int { 2 }
    @usableFromInline static var delivery: Int { 4 }

    /// `deliveries * delivery | released? | terminated?`
    @usableFromInline let state = Atomic<Int>(0)

    @inlinable init() {}

    /// Starts a delivery; `false` once terminated: the caller calls nothing (but still ``exit()``).
    @inlinable
    func enter() -> Bool {
        state.wrappingAdd(Self.delivery, ordering: .acquiring).oldValue & Self.terminated == 0
    }

    /// Ends a delivery; `true` if the caller must now release what the gate guards.
    @inlinable
    func exit() -> Bool {
        let now = state.wrappingSubtract(Self.delivery, ordering: .acquiringAndReleasing).newValue
        return now == Self.terminated && claimRelease()
    }

    /// Terminates and starts the last delivery (a completion); `false` if already terminated: the caller then
    /// calls nothing, not even ``exit()``.
    @inlinable
    func enterFinal() -> Bool {
        var current = state.load(ordering: .relaxed)
        while current & Self.terminated == 0 {
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: (current + Self.delivery) | Self.terminated,
                ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Terminates; `true` if the caller must now release, `false` if already terminated or a delivery in
    /// progress will release on its way out.
    @inlinable
    func terminate() -> Bool {
        let before = state.bitwiseOr(Self.terminated, ordering: .acquiringAndReleasing).oldValue
        return before & Self.terminated == 0 && before < Self.delivery && claimRelease()
    }

    @inlinable
    var isTerminated: Bool { state.load(ordering: .acquiring) & Self.terminated != 0 }

    /// Whether a caller was told to release (read once nothing else can touch the gate).
    @inlinable
    var isReleased: Bool { state.load(ordering: .acquiring) & Self.released != 0 }

    @inlinable
    func claimRelease() -> Bool {
        state.compareExchange(
            expected: Self.terminated, desired: Self.terminated | Self.released,
            ordering: .acquiringAndReleasing
        ).exchanged
    }
}
