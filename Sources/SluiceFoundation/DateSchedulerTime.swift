import Foundation
import Sluice

/// An instant on the wall clock (a `Date`): the time type of the Foundation schedulers.
///
/// Combine names it `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType`; here
/// both names are aliases of this one type, so the arithmetic is written once. Being a `Date`,
/// it follows the system clock: setting the clock moves it, unlike `DispatchQueue`'s uptime.
public struct DateSchedulerTime: Strideable, Codable, Hashable, Sendable {
    /// The instant.
    public var date: Date

    /// The instant `date`.
    public init(_ date: Date) { self.date = date }

    /// The interval from this instant to `other` (negative if `other` is earlier).
    public func distance(to other: DateSchedulerTime) -> Stride {
        Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
    }

    /// The instant `n` after this one (before it, for a negative `n`).
    public func advanced(by n: Stride) -> DateSchedulerTime {
        DateSchedulerTime(date.addingTimeInterval(n.timeInterval))
    }

    public static func < (lhs: DateSchedulerTime, rhs: DateSchedulerTime) -> Bool { lhs.date < rhs.date }
    public static func == (lhs: DateSchedulerTime, rhs: DateSchedulerTime) -> Bool { lhs.date == rhs.date }
    public func hash(into hasher: inout Hasher) { hasher.combine(date) }

    /// A signed interval in seconds, as Foundation counts them (`TimeInterval`).
    ///
    /// Literals are seconds, integer or not: `0.3` and `.milliseconds(300)` are the same
    /// interval. As in Combine, ``magnitude`` is the signed interval itself (not its absolute
    /// value), equal to ``timeInterval``.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
        Codable, Hashable, Sendable, CustomStringConvertible
    {
        public typealias FloatLiteralType = TimeInterval
        public typealias IntegerLiteralType = TimeInterval
        public typealias Magnitude = TimeInterval

        /// The interval in seconds, signed.
        public var magnitude: TimeInterval

        /// The interval in seconds, signed (the same as ``magnitude``).
        public var timeInterval: TimeInterval { magnitude }

        /// An interval of `timeInterval` seconds.
        public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }

        /// An interval of `value` seconds.
        public init(integerLiteral value: TimeInterval) { magnitude = value }

        /// An interval of `value` seconds.
        public init(floatLiteral value: TimeInterval) { magnitude = value }

        /// An interval of `source` seconds, if a `TimeInterval` holds it exactly.
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let seconds = TimeInterval(exactly: source) else { return nil }
            magnitude = seconds
        }

        public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
        public static func seconds(_ s: Double) -> Stride { Stride(s) }
        public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1e3) }
        public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1e6) }
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1e9) }

        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
        public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
        public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
        public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
        public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }

        public var description: String { "\(magnitude)s" }
    }
}
