// Combine's shape of the requirements, for what Swift 6 rejects even under `@preconcurrency`: an unapplied
// reference (`let body: (Options?, @escaping () -> Void) -> Void = scheduler.schedule`, as in
// combine-schedulers' `AnyScheduler`) or a non-`Sendable` parameter passed on (its `UIScheduler`).
// Deprecated: every use warns that nothing is checked; disfavoured: closures written at a call go elsewhere.

extension Scheduler {
    /// Combine's `schedule(options:_:)`, for an action that is not `Sendable`: runs it as
    /// ``schedule(options:_:)`` does. Nothing checks that it may run there: the caller answers for it, as
    /// with Combine. Only a non-`Sendable` function value or an unapplied reference typed with Combine's
    /// actions ends up here, with a deprecation warning; make the action `@Sendable` to have it checked.
    @available(
        *, deprecated, message:
        "the action is not Sendable, so nothing checks that it may run where the scheduler runs it; make it @Sendable"
    )
    @_disfavoredOverload
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = CallerCheckedAction(action)
        schedule(options: options) { action.run() }
    }

    /// Combine's `schedule(after:tolerance:options:_:)` for a non-`Sendable` action (unchecked, as above).
    @available(
        *, deprecated, message:
        "the action is not Sendable, so nothing checks that it may run where the scheduler runs it; make it @Sendable"
    )
    @_disfavoredOverload
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = CallerCheckedAction(action)
        schedule(after: date, tolerance: tolerance, options: options) { action.run() }
    }

    /// Combine's `schedule(after:interval:tolerance:options:_:)` for a non-`Sendable` action (unchecked).
    @available(
        *, deprecated, message:
        "the action is not Sendable, so nothing checks that it may run where the scheduler runs it; make it @Sendable"
    )
    @_disfavoredOverload
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let action = CallerCheckedAction(action)
        return schedule(after: date, interval: interval, tolerance: tolerance, options: options) { action.run() }
    }
}

/// A non-`Sendable` action handed to a deprecated Combine-shaped overload above, boxed to pass on as a
/// `@Sendable` closure. Unchecked, not safe by construction: Combine's contract, where the caller promises
/// that running the action on the scheduler cannot race, as the deprecation warning at every call says.
private struct CallerCheckedAction: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) { self.run = run }
}
