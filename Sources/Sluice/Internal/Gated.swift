import Synchronization

/// A value (a downstream subscriber) that a subscription lets go of the moment it terminates,
/// while its deliveries use the value without a lock and without retaining it.
///
/// A `TerminationGate` counts the deliveries in progress. `withValue(_:)` enters it and,
/// unless terminated, lends the value for the duration of the call; `withValueFinally(_:)`
/// does the same for the last delivery (a completion) and terminates; `terminate()` ends it
/// from any thread. Whoever brings the gate to "terminated, nothing in progress" releases the
/// value, so a cancel on another thread never frees it under a running delivery.
///
/// Unsafe inside, safe to use: the box is read only between a successful enter and the
/// matching exit, and released exactly once, by the one caller the gate picks, after every
/// such read has ended (the gate's acquire/release ordering orders the release after them). It
/// is held `Unmanaged` so that a delivery costs the gate's two atomic operations and no retain.
@usableFromInline
struct Gated<Value>: ~Copyable {
    @usableFromInline
    final class Box {
        @usableFromInline let value: Value
        @inlinable init(_ value: Value) { self.value = value }
    }

    @usableFromInline let gate = TerminationGate()
    @usableFromInline let box: Unmanaged<Box>

    @inlinable
    init(_ value: Value) {
        box = Unmanaged.passRetained(Box(value))
    }

    deinit {
        // No delivery can run any more; release the value if no termination did.
        if !gate.isReleased { box.release() }
    }

    /// Calls `body` with the value, or returns `nil` without calling it once terminated.
    /// Deliveries may nest (re-entrancy) and run on several threads.
    @inlinable
    func withValue<Result>(_ body: (Value) -> Result) -> Result? {
        defer { releaseIfDone(gate.exit()) }
        guard gate.enter() else { return nil }
        return box._withUnsafeGuaranteedRef { body($0.value) }
    }

    /// Terminates and calls `body` with the value, unless already terminated: at most one such
    /// call runs, and no `withValue(_:)` calls its body after it has started.
    @inlinable
    func withValueFinally(_ body: (Value) -> Void) {
        guard gate.enterFinal() else { return }
        box._withUnsafeGuaranteedRef { body($0.value) }
        releaseIfDone(gate.exit())
    }

    /// Ends the deliveries: none starts after this; the value is released now, or by the
    /// delivery in progress as it ends. Idempotent, from any thread.
    @inlinable
    func terminate() {
        releaseIfDone(gate.terminate())
    }

    @inlinable
    func releaseIfDone(_ release: Bool) {
        if release { box.release() }
    }
}
