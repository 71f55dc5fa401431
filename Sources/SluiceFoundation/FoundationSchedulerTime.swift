import Foundation
import Sluice

// Two time types with the same API, as in Combine, so that code extending both (a conformance for each)
// compiles rather than failing as a redundant conformance. Both forward their arithmetic to `Seconds` below.

extension RunLoop {
    /// An instant on the wall clock (a `Date`): the time type of `RunLoop` as a scheduler. It follows the system
    /// clock, unlike `DispatchQueue`'s uptime. `OperationQueue.SchedulerTimeType` is another type, as in Combine.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The instant.
        public var date: Date

        /// The instant `date`.
        public init(_ date: Date) { self.date = date }

        /// The interval from this instant to `other` (negative if `other` is earlier).
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(Seconds.between(date, other.date))
        }

        /// The instant `n` after this one (before it, for a negative `n`).
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
        }

        public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool { lhs.date < rhs.date }

        /// A signed interval in seconds (`TimeInterval`); literals are seconds, integer or not. As in Combine,
        /// ``magnitude`` is the signed interval itself (not its absolute value), equal to ``timeInterval``.
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

            public static func seconds(_ s: Int) -> Stride { Stride(Seconds.of(seconds: s)) }
            public static func seconds(_ s: Double) -> Stride { Stride(s) }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(Seconds.of(milliseconds: ms)) }
            public static func microseconds(_ us: Int) -> Stride { Stride(Seconds.of(microseconds: us)) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(Seconds.of(nanoseconds: ns)) }

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
}

extension OperationQueue {
    /// An instant on the wall clock (a `Date`): the time type of `OperationQueue` as a scheduler. It follows the system
    /// clock, unlike `DispatchQueue`'s uptime. `RunLoop.SchedulerTimeType` is another type, as in Combine.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The instant.
        public var date: Date

        /// The instant `date`.
        public init(_ date: Date) { self.date = date }

        /// The interval from this instant to `other` (negative if `other` is earlier).
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(Seconds.between(date, other.date))
        }

        /// The instant `n` after this one (before it, for a negative `n`).
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
        }

        public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool { lhs.date < rhs.date }

        /// A signed interval in seconds (`TimeInterval`); literals are seconds, integer or not. As in Combine,
        /// ``magnitude`` is the signed interval itself (not its absolute value), equal to ``timeInterval``.
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

            public static func seconds(_ s: Int) -> Stride { Stride(Seconds.of(seconds: s)) }
            public static func seconds(_ s: Double) -> Stride { Stride(s) }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(Seconds.of(milliseconds: ms)) }
            public static func microseconds(_ us: Int) -> Stride { Stride(Seconds.of(microseconds: us)) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(Seconds.of(nanoseconds: ns)) }

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
}

private enum Seconds {
    static func between(_ start: Date, _ end: Date) -> TimeInterval {
        end.timeIntervalSinceReferenceDate - start.timeIntervalSinceReferenceDate
    }

    static func of(seconds: Int) -> TimeInterval { TimeInterval(seconds) }
    static func of(milliseconds: Int) -> TimeInterval { TimeInterval(milliseconds) / 1e3 }
    static func of(microseconds: Int) -> TimeInterval { TimeInterval(microseconds) / 1e6 }
    static func of(nanoseconds: Int) -> TimeInterval { TimeInterval(nanoseconds) / 1e9 }
}
