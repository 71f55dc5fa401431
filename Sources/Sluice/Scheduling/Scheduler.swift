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
    func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void)

    /// Runs `action` once, no sooner than `date`, within `tolerance` of it.
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void)

    /// Runs `action` from `date` on, every `interval`, until the returned cancellable is
    /// cancelled (or released). Runs of one action never overlap.
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable
}

extension Scheduler {
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
