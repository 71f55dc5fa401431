/// A subscription's one entry point for the work a scheduler runs for it, made once so that scheduling
/// allocates nothing; the subscription then finds what is due in its own state.
///
/// Unchecked because Swift rejects a `@Sendable` closure capturing a generic subscription (its downstream's
/// metatype, `SendableMetatypes`); safe for its one kind of callee, a scheduled operator's subscription whose
/// state is all behind its lock and which calls its downstream one signal at a time on the scheduler's
/// thread, as any publisher may. It holds the subscription strongly (as Combine's scheduled actions do) until
/// the subscription drops it on termination, which ends that cycle.
@usableFromInline
struct ScheduledEntry: @unchecked Sendable {
    @usableFromInline let run: () -> Void

    @inlinable init(_ run: @escaping () -> Void) { self.run = run }

    /// The closure to hand a scheduler (allocate it once, keep it).
    @inlinable var action: @Sendable () -> Void { { self.run() } }
}
