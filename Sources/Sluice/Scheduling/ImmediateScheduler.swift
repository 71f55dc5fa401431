/// A scheduler that runs every action at once, on the calling thread, whatever time it is asked for.
///
/// Its clock never moves (``now`` is always the same instant), and a timed or repeating action runs once,
/// immediately. Use it where an API wants a scheduler but the work should be synchronous
/// (`subscribe(on: ImmediateScheduler.shared)` is a no-op); to test timing, use SluiceTesting's
/// `TestScheduler`. Every call's action is checked, short forms included (a ``SendableActionScheduler``).
public struct ImmediateScheduler: SendableActionScheduler, Sendable {
    /// The time type of ``ImmediateScheduler``, as Combine's: one instant, as the scheduler never waits.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        @inlinable init() {}

        /// Zero: every instant of this scheduler is the same.
        @inlinable public func distance(to other: Self) -> Stride { 0 }

        /// The same instant.
        @inlinable public func advanced(by n: Stride) -> Self { self }

        /// An interval of this scheduler, as Combine's: a count with no unit. Time units convert to zero, a
        /// float literal is truncated (`14.6` is `14`), and it encodes as `{"magnitude": n}`.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Codable,
            ExpressibleByFloatLiteral, Sendable
        {
            /// The count.
            public var magnitude: Int

            /// The interval `value`.
            @inlinable public init(_ value: Int) { magnitude = value }
            /// The interval `value`.
            @inlinable public init(integerLiteral value: Int) { magnitude = value }
            /// The interval `value`, truncated toward zero.
            @inlinable public init(floatLiteral value: Double) { magnitude = Int(value) }
            /// The interval `source`, if it fits in an `Int`.
            @inlinable public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            /// Zero, whatever `s`, as in Combine.
            @inlinable public static func seconds(_ s: Int) -> Self { 0 }
            /// Zero, whatever `s`, as in Combine.
            @inlinable public static func seconds(_ s: Double) -> Self { 0 }
            /// Zero, whatever `ms`, as in Combine.
            @inlinable public static func milliseconds(_ ms: Int) -> Self { 0 }
            /// Zero, whatever `us`, as in Combine.
            @inlinable public static func microseconds(_ us: Int) -> Self { 0 }
            /// Zero, whatever `ns`, as in Combine.
            @inlinable public static func nanoseconds(_ ns: Int) -> Self { 0 }

            @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
            @inlinable public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }
            @inlinable public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }
            @inlinable public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }
            @inlinable public static func += (lhs: inout Self, rhs: Self) { lhs.magnitude += rhs.magnitude }
            @inlinable public static func -= (lhs: inout Self, rhs: Self) { lhs.magnitude -= rhs.magnitude }
            @inlinable public static func *= (lhs: inout Self, rhs: Self) { lhs.magnitude *= rhs.magnitude }
        }
    }

    /// It takes no options.
    public typealias SchedulerOptions = Never

    /// The one immediate scheduler (it has no state).
    public static let shared = ImmediateScheduler()

    /// Always the same instant.
    @inlinable public var now: SchedulerTimeType { SchedulerTimeType() }

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

    /// Runs `action` once, now, and returns a cancellable that does nothing (`Subscriptions.empty`, as
    /// Combine's): an immediate scheduler cannot wait for the next interval.
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
