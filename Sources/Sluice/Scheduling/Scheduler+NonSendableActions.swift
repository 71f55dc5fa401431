// Combine's shape of the three requirements, for code written against Combine's `Scheduler`,
// whose actions are plain `() -> Void`.
//
// Swift 6 downgrades a non-`Sendable` action passed in a *call* of a `@preconcurrency`
// requirement to a warning, but not the *conversion* of an unapplied reference:
// `let body: (Options?, @escaping () -> Void) -> Void = scheduler.schedule` is an error
// ("converting non-Sendable function value to '@Sendable () -> Void' may introduce data races"),
// and `@preconcurrency import` does not change that. A type-erased scheduler written for
// Combine (combine-schedulers' `AnyScheduler`) is made of exactly such references, and a
// non-`Sendable` action received as a parameter and passed on to `DispatchQueue.main`
// (combine-schedulers' `UIScheduler`) can only be accepted by a method that takes one.
//
// These overloads are that method. They are deprecated, so that every use is a warning at the
// caller, saying what the compiler can no longer check; disfavoured, so that a closure written
// at the call always goes to the checked requirement (or to a conforming type's own `@Sendable`
// method) instead; and no code of this package calls them (it builds with warnings as errors).

extension Scheduler {
    /// Combine's `schedule(options:_:)`, for an action that is not `Sendable`: runs it as
    /// ``schedule(options:_:)`` does, wherever the scheduler runs its actions.
    ///
    /// Nothing checks that the action may run there: the caller answers for it, as with
    /// Combine. Only a non-`Sendable` function value (a parameter passed on, a stored closure)
    /// or an unapplied reference typed with Combine's `() -> Void` actions ends up here, with a
    /// deprecation warning; make the action `@Sendable` to have it checked.
    @available(
        *, deprecated,
        message: "the action is not Sendable, so nothing checks that it may run where the scheduler runs it; make it @Sendable"
    )
    @_disfavoredOverload
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = CallerCheckedAction(action)
        schedule(options: options) { action.run() }
    }

    /// Combine's `schedule(after:tolerance:options:_:)`, for an action that is not `Sendable`
    /// (unchecked and deprecated, as Combine's `schedule(options:_:)` above).
    @available(
        *, deprecated,
        message: "the action is not Sendable, so nothing checks that it may run where the scheduler runs it; make it @Sendable"
    )
    @_disfavoredOverload
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = CallerCheckedAction(action)
        schedule(after: date, tolerance: tolerance, options: options) { action.run() }
    }

    /// Combine's `schedule(after:interval:tolerance:options:_:)`, for an action that is not
    /// `Sendable` (unchecked and deprecated, as Combine's `schedule(options:_:)` above).
    @available(
        *, deprecated,
        message: "the action is not Sendable, so nothing checks that it may run where the scheduler runs it; make it @Sendable"
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

/// A non-`Sendable` action handed to a scheduler through one of the deprecated Combine-shaped
/// overloads above, boxed so that it can be passed on as a `@Sendable` closure.
///
/// This is the one place where the package does not prove that an action may run where it is
/// run. It is not safe by construction; it is Combine's contract, kept for code written against
/// Combine: the caller promises that running the action on the scheduler cannot race, and the
/// deprecation warning at every call says so. Nothing else uses it: the package's own calls,
/// and every closure written at a call, go to the checked `@Sendable` methods.
private struct CallerCheckedAction: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) { self.run = run }
}
