/// A scheduler that forwards everything, unchanged, to a scheduler whose type it hides, keeping its time and
/// options types (Combine has no such type), so a test can hand in another, such as a `TestScheduler`:
///
/// <!-- snippet: AnySchedulerInjected -->
/// ```swift
/// final class SearchModel {
///     let scheduler: AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
///     init(scheduler: AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
///              = AnyScheduler(DispatchQueue.main)) { self.scheduler = scheduler }
/// }
/// let app = SearchModel()                                   // the main queue
/// let test = DispatchQueue.test                             // virtual time
/// let model = SearchModel(scheduler: AnyScheduler(test))    // the test moves the clock
/// ```
///
/// The actions run where, when and in the order the wrapped scheduler runs them. `Sendable`, it wraps only a
/// `Sendable` scheduler; it checks every call's action, short forms included (a ``SendableActionScheduler``).
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: SendableActionScheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    @usableFromInline let nowBody: @Sendable () -> SchedulerTimeType
    @usableFromInline let minimumToleranceBody: @Sendable () -> SchedulerTimeType.Stride
    @usableFromInline let scheduleBody: @Sendable (SchedulerOptions?, @escaping @Sendable () -> Void) -> Void
    @usableFromInline let scheduleAfterBody:
        @Sendable (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?,
            @escaping @Sendable () -> Void) -> Void
    @usableFromInline let scheduleRepeatingBody:
        @Sendable (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
            @escaping @Sendable () -> Void) -> any Cancellable

    /// A scheduler forwarding to `scheduler`; time types are `Sendable`, as calls may come from any thread.
    public init<S: Scheduler & Sendable>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions,
        SchedulerTimeType: Sendable, SchedulerTimeType.Stride: Sendable
    {
        nowBody = { scheduler.now }
        minimumToleranceBody = { scheduler.minimumTolerance }
        scheduleBody = { scheduler.schedule(options: $0, $1) }
        scheduleAfterBody = { scheduler.schedule(after: $0, tolerance: $1, options: $2, $3) }
        scheduleRepeatingBody = { scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) }
    }

    /// The wrapped scheduler's current time.
    @inlinable public var now: SchedulerTimeType { nowBody() }

    /// The wrapped scheduler's least tolerance.
    @inlinable public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }

    /// Has the wrapped scheduler run `action` as soon as it can.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        scheduleBody(options, action)
    }

    /// Has the wrapped scheduler run `action` once, no sooner than `date`.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        scheduleAfterBody(date, tolerance, options, action)
    }

    /// Has the wrapped scheduler run `action` from `date` on, every `interval`; returns its cancellable.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        scheduleRepeatingBody(date, interval, tolerance, options, action)
    }

    /// This scheduler itself (it is erased already).
    @inlinable public func eraseToAnyScheduler() -> Self { self }
}

extension Scheduler where Self: Sendable, SchedulerTimeType: Sendable, SchedulerTimeType.Stride: Sendable {
    /// This scheduler, wrapped in an ``AnyScheduler`` that hides its type.
    @inlinable
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> { AnyScheduler(self) }
}
