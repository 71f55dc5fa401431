/// A protocol that defines when and how to execute a closure.
///
/// Operators that move signals in time or between threads (`receive(on:)`, `delay`, `debounce`, …) do
/// all their timed and deferred work through one. It runs each action exactly once (the repeating form:
/// until the returned ``Cancellable`` is cancelled), at or after the time asked for, within the tolerance;
/// where (the calling thread, a `DispatchQueue`, an actor, virtual time) is the scheduler's to say.
///
/// Unlike Combine's, the actions are `@Sendable`: a scheduler may run them on another thread, so the
/// compiler checks what they capture. A closure that touches main-actor state must run on the main actor:
/// schedule it on ``ClockScheduler/mainActor`` or use `Task { @MainActor in … }`. How strictly that is
/// checked depends on what the call names, so that code written for Combine's `() -> Void` actions compiles:
/// - **A scheduler of this package named by its type** (`DispatchQueue.main.schedule { … }`), or any
///   `S: SendableActionScheduler`: a closure that captures non-`Sendable` state or touches an actor's state
///   is an **error** (see ``SendableActionScheduler``).
/// - **A generic scheduler** (`S: Scheduler`): the requirements and short forms are `@preconcurrency`, so
///   the same closure is a **warning**, which lets Combine-shaped generic code (a type-erased scheduler, a
///   timer publisher) compile.
/// - **A non-`Sendable` function value** (a parameter passed on, a stored closure) can never be `@Sendable`:
///   a short form takes it as `@preconcurrency` (a warning); a full form (`schedule(options:_:)` and the two
///   `after:` forms) goes to a deprecated overload of Combine's shape, whose **deprecation warning** says
///   the action is not checked; so does an unapplied reference typed with Combine's actions.
///
/// A conforming type may declare its methods with Combine's `@escaping () -> Void` (accepting every action;
/// the caller answers for where it runs) or `@escaping @Sendable () -> Void`; conform it to
/// ``SendableActionScheduler`` as well to have every call on it checked.
public protocol Scheduler<SchedulerTimeType> {
    /// How this scheduler measures time.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

    /// The options a scheduler's actions accept (`Never` where there are none).
    associatedtype SchedulerOptions

    /// The scheduler's idea of the current time.
    var now: SchedulerTimeType { get }

    /// The least tolerance the scheduler allows for its timed actions.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Runs `action` as soon as the scheduler can, once. `@preconcurrency`: on a generic scheduler a
    /// non-`Sendable` action warns; a conforming type's `@Sendable` method keeps direct calls checked.
    @preconcurrency
    func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void)

    /// Runs `action` once, no sooner than `date`, within `tolerance` (`@preconcurrency`, as above).
    @preconcurrency
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void)

    /// Runs `action` from `date` on, every `interval`, without overlap, until the returned cancellable is
    /// cancelled or released. `@preconcurrency`, as above.
    @preconcurrency
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable
}

// The short forms, twice: `@preconcurrency` for any scheduler (Combine-shaped generic code compiles, with
// warnings), and checked for `SendableActionScheduler`s, which overload resolution prefers.

extension Scheduler {
    /// Runs `action` once, no sooner than `date`, with the scheduler's least tolerance. The short forms are
    /// `@preconcurrency` here; a ``SendableActionScheduler`` uses its checked overloads instead.
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
/// Every scheduler of this package conforms. It restates ``Scheduler``'s requirements without
/// `@preconcurrency` and gives the short forms checked overloads, which overload resolution prefers: here,
/// `queue.schedule { counter.value += 1 }` with a non-`Sendable` `counter` is rejected, as is a main-actor
/// closure handed to a background queue. Conform any scheduler whose methods take `@Sendable` actions.
public protocol SendableActionScheduler<SchedulerTimeType>: Scheduler {
    /// Runs `action` as soon as the scheduler can, once; checked, not `@preconcurrency` (nor the other two).
    func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void)

    /// Runs `action` once, no sooner than `date`, within `tolerance` of it.
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void)

    /// Runs `action` from `date` on, every `interval`, until its cancellable is cancelled or released.
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

/// A time interval in the units people write; every scheduler's stride conforms, so
/// `.debounce(for: .milliseconds(300), scheduler: queue)` reads the same on any.
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
