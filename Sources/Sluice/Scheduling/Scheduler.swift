/// A protocol that defines when and how to execute a closure.
///
/// Operators that move signals in time or between threads (`receive(on:)`, `subscribe(on:)`,
/// `delay`, `debounce`, `throttle`, `timeout`, `measureInterval`, `collect(_:options:)` by
/// time) take a scheduler and do all their timed and deferred work through it.
///
/// A scheduler runs each action it is given exactly once (or, for the repeating form, until
/// the returned ``Cancellable`` is cancelled), at or after the time asked for, within the
/// tolerance. Where it runs them — the calling thread (``ImmediateScheduler``), a
/// `DispatchQueue`, an actor (``ClockScheduler``) or virtual time (`TestScheduler` in
/// SluiceTesting) — is the scheduler's to say.
///
/// Unlike Combine's, the actions are `@Sendable`: a scheduler may run them on another thread,
/// so the compiler checks that what they capture may go there. A closure that touches
/// main-actor state must run on the main actor: schedule it on ``ClockScheduler/mainActor``
/// or use `Task { @MainActor in … }`.
///
/// How strictly that is checked depends on what the call names, so that code written for
/// Combine's protocol (whose actions are plain `() -> Void`) still compiles:
///
/// - **A scheduler of this package, named by its type** (`DispatchQueue.main.schedule { … }`,
///   `RunLoop.main`, `OperationQueue`, ``ImmediateScheduler``, ``ClockScheduler``,
///   ``AnyScheduler``, the test schedulers of SluiceTesting), or any `S: SendableActionScheduler`:
///   a closure that captures non-`Sendable` state or touches an actor's state is an **error**
///   (see ``SendableActionScheduler``).
/// - **A generic scheduler** (`S: Scheduler`): the requirements and the short forms below are
///   `@preconcurrency`, so the same closure is a **warning**. That is what lets Combine-shaped
///   generic code (a type-erased scheduler, a timer publisher) compile against this protocol.
/// - **A non-`Sendable` function value** (not a closure written at the call: a parameter passed
///   on, a stored closure) can never be made `@Sendable`. A short form then takes it as
///   `@preconcurrency` (a warning); a full form (`schedule(options:_:)` and the two `after:`
///   forms) goes to a deprecated overload of Combine's shape, taking `() -> Void`, whose
///   **deprecation warning** says that the action is not checked. That overload also serves an
///   unapplied reference typed with Combine's actions
///   (`let body: (Options?, @escaping () -> Void) -> Void = scheduler.schedule`), which Swift 6
///   rejects for a `@Sendable` parameter even when `@preconcurrency`.
///
/// Code of this package builds with warnings as errors, so none of it takes the unchecked ways.
/// A conforming type may declare its methods with Combine's `@escaping () -> Void` (they then
/// accept every action, and the caller answers for where they run) or with
/// `@escaping @Sendable () -> Void`; conform it to ``SendableActionScheduler`` as well to have
/// every call on it checked.
public protocol Scheduler<SchedulerTimeType> {
    /// How this scheduler measures time.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

    /// The options a scheduler's actions accept (`Never` where there are none).
    associatedtype SchedulerOptions

    /// The scheduler's idea of the current time.
    var now: SchedulerTimeType { get }

    /// The least tolerance the scheduler allows for its timed actions.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Runs `action` as soon as the scheduler can, once.
    ///
    /// `@preconcurrency`: called on a generic scheduler, an action that is not `Sendable` is a
    /// warning rather than an error (see the protocol's discussion); a conforming type's own
    /// `@Sendable` method keeps direct calls checked.
    @preconcurrency
    func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void)

    /// Runs `action` once, no sooner than `date`, within `tolerance` of it (`@preconcurrency`,
    /// as ``schedule(options:_:)``).
    @preconcurrency
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void)

    /// Runs `action` from `date` on, every `interval`, until the returned cancellable is
    /// cancelled (or released). Runs of one action never overlap. `@preconcurrency`, as
    /// ``schedule(options:_:)``.
    @preconcurrency
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable
}

// The short forms, twice: `@preconcurrency` for any scheduler (generic code written for
// Combine's protocol compiles, with warnings), and plain `@Sendable` for the schedulers that are
// `SendableActionScheduler`s, which overload resolution prefers, as the more constrained
// extension, wherever the closure can be `@Sendable` — so a direct call on one of them is checked.

extension Scheduler {
    /// Runs `action` once, no sooner than `date`, with the scheduler's least tolerance.
    ///
    /// The short forms on a generic scheduler are `@preconcurrency` (a non-`Sendable` action is
    /// a warning); on a ``SendableActionScheduler`` their checked overloads are used instead.
    @inlinable @preconcurrency
    public func schedule(after date: SchedulerTimeType, _ action: @escaping @Sendable () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, options: nil, action)
    }

    /// Runs `action` as soon as the scheduler can, once, with no options.
    @inlinable @preconcurrency
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        schedule(options: nil, action)
    }

    /// Runs `action` once, no sooner than `date`, within `tolerance` of it, with no options.
    @inlinable @preconcurrency
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping @Sendable () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` from `date` on, every `interval`, within `tolerance`, until cancelled.
    @inlinable @preconcurrency
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` from `date` on, every `interval`, with the least tolerance, until cancelled.
    @inlinable @preconcurrency
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
    }
}

/// A ``Scheduler`` whose every action is checked: `@Sendable`, with errors, not warnings.
///
/// Every scheduler of this package conforms. ``Scheduler``'s requirements and short forms are
/// `@preconcurrency`, for code written against Combine's protocol; this protocol restates the
/// three requirements without it and gives the short forms (`schedule(_:)`,
/// `schedule(after:_:)`, …) checked overloads, which overload resolution prefers. So, on one of
/// these schedulers or on a generic `S: SendableActionScheduler`,
/// `queue.schedule { counter.value += 1 }` with a non-`Sendable` `counter` is rejected, as is a
/// main-actor closure handed to a background queue.
///
/// It adds nothing to implement: conform a scheduler of your own when its methods take
/// `@escaping @Sendable () -> Void` actions (the same methods satisfy both protocols).
public protocol SendableActionScheduler<SchedulerTimeType>: Scheduler {
    /// Runs `action` as soon as the scheduler can, once (checked: not `@preconcurrency`).
    func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void)

    /// Runs `action` once, no sooner than `date`, within `tolerance` of it (checked).
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void)

    /// Runs `action` from `date` on, every `interval`, until the returned cancellable is
    /// cancelled or released (checked).
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable
}

extension SendableActionScheduler {
    /// Runs `action` once, no sooner than `date`, with the scheduler's least tolerance.
    @inlinable
    public func schedule(after date: SchedulerTimeType, _ action: @escaping @Sendable () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, options: nil, action)
    }

    /// Runs `action` as soon as the scheduler can, once, with no options.
    @inlinable
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        schedule(options: nil, action)
    }

    /// Runs `action` once, no sooner than `date`, within `tolerance` of it, with no options.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping @Sendable () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` from `date` on, every `interval`, within `tolerance`, until cancelled.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` from `date` on, every `interval`, with the least tolerance, until cancelled.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
    }
}

/// A time interval that a scheduler's stride can be made from, in the units people write.
///
/// Every scheduler's `SchedulerTimeType.Stride` conforms, so that operators taking a stride
/// read the same on any scheduler: `.debounce(for: .milliseconds(300), scheduler: queue)`.
public protocol SchedulerTimeIntervalConvertible {
    /// An interval of `s` whole seconds.
    static func seconds(_ s: Int) -> Self
    /// An interval of `s` seconds.
    static func seconds(_ s: Double) -> Self
    /// An interval of `ms` milliseconds.
    static func milliseconds(_ ms: Int) -> Self
    /// An interval of `us` microseconds.
    static func microseconds(_ us: Int) -> Self
    /// An interval of `ns` nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
}
