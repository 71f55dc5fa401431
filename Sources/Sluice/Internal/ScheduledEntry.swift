/// A subscription's one entry point for the work a scheduler runs for it, made once per
/// subscription so that scheduling costs no allocation: every action the subscription hands
/// its scheduler is this same `@Sendable` closure, which calls back into the subscription
/// (which then finds what is due in its own state).
///
/// Swift rejects a `@Sendable` closure that calls a generic subscription directly (it would
/// capture the downstream's metatype, `SendableMetatypes`), so the call is wrapped here, and
/// the `@Sendable` closure captures only this box. That is safe for the one kind of callee it
/// is made for: a scheduled operator's subscription (`receive(on:)`, `subscribe(on:)`,
/// `delay`, `debounce`, `throttle`, `timeout`, `collect(_:options:)` by time) whose state is all
/// behind its lock and which calls its downstream one signal at a time, on the scheduler's
/// thread, as Combine's contract lets any publisher do (a `sink` made on an actor hops to it
/// itself). The closure usually holds the subscription strongly (a scheduled action keeps it
/// alive until it has run, as in Combine); the subscription drops its entry when it terminates,
/// which ends that cycle.
@usableFromInline
struct ScheduledEntry: @unchecked Sendable {
    @usableFromInline let run: () -> Void

    @inlinable init(_ run: @escaping () -> Void) { self.run = run }

    /// The closure to hand a scheduler (allocate it once, keep it).
    @inlinable var action: @Sendable () -> Void { { self.run() } }
}
