/// A scheduler that runs every action at once, on the calling thread, whatever time it is
/// asked for.
///
/// Its clock never moves: ``now`` is always the same instant, and a timed or repeating action
/// runs once, immediately. Use it where an API wants a scheduler and the work should happen
/// synchronously (`subscribe(on: ImmediateScheduler.shared)` is a no-op), and in tests of code
/// that must not depend on time. To test timing, use `TestScheduler` from SluiceTesting.
///
/// Its actions are `@Sendable` and checked at every call, short forms included (it is a
/// ``SendableActionScheduler``): a closure that captures non-`Sendable` or actor-isolated
/// state is an error, not the warning that a generic `Scheduler` gives.
public struct ImmediateScheduler: SendableActionScheduler, Sendable {
    /// The time type of ``ImmediateScheduler``: an instant that never advances on its own.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// The interval between two instants.
        public typealias Stride = NanosecondStride

        /// Nanoseconds since an arbitrary origin.
        public var nanoseconds: Int

        /// The instant `nanoseconds` after the origin.
        @inlinable public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

        @inlinable public func distance(to other: Self) -> Stride { .nanoseconds(other.nanoseconds.subtractingSaturating(nanoseconds)) }
        @inlinable public func advanced(by n: Stride) -> Self { Self(nanoseconds: nanoseconds.addingSaturating(n.magnitude)) }
    }

    /// It takes no options.
    public typealias SchedulerOptions = Never

    /// The one immediate scheduler (it has no state).
    public static let shared = ImmediateScheduler()

    /// Always the same instant.
    @inlinable public var now: SchedulerTimeType { SchedulerTimeType(nanoseconds: 0) }

    /// Zero.
    @inlinable public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Runs `action` now.
    @inlinable
    public func schedule(options: Never?, _ action: @escaping @Sendable () -> Void) { action() }

    /// Runs `action` now, whatever `date` is.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping @Sendable () -> Void
    ) { action() }

    /// Runs `action` once, now, and returns a cancellable that does nothing (as Combine's,
    /// `Subscriptions.empty`): an immediate scheduler cannot wait for the next interval.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}

extension ImmediateScheduler: OwnScheduler {}
