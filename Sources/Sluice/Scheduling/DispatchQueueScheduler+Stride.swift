import Dispatch

extension DispatchQueue.SchedulerTimeType {
    /// A signed interval between two `DispatchQueue` instants, counted in whole nanoseconds.
    ///
    /// Its own type, as in Combine, which gives it rules unlike ``NanosecondStride``'s: an integer is seconds
    /// wherever it comes from (`Stride(exactly: 2)` too); `*` and `*=` give zero (scale the magnitude
    /// instead: `.nanoseconds(interval.magnitude * 3)`); it encodes as `{"_nanoseconds": 419872}`. Otherwise
    /// a literal is seconds and arithmetic saturates: `.seconds(.max)` is `.nanoseconds(.max)`, which is also
    /// `DispatchTimeInterval.never` and what `advanced(by:)` turns into `.distantFuture`.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Codable,
        ExpressibleByFloatLiteral, Sendable, CustomStringConvertible
    {
        /// The interval in nanoseconds (negative for an interval backwards in time).
        public var magnitude: Int

        @inlinable init(nanosecondStride stride: NanosecondStride) { magnitude = stride.magnitude }

        /// An interval of `value` seconds.
        @inlinable public init(integerLiteral value: Int) { self = .seconds(value) }

        /// An interval of `value` seconds, rounded to the nanosecond.
        @inlinable public init(floatLiteral value: Double) { self = .seconds(value) }

        /// An interval of `source` seconds (saturating), if `source` fits in an `Int`.
        @inlinable
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let seconds = Int(exactly: source) else { return nil }
            self = .seconds(seconds)
        }

        /// An interval of `seconds` seconds, as Combine's `Stride(_: TimeInterval)`.
        @inlinable public init(_ seconds: Double) { self = .seconds(seconds) }

        /// The interval `timeInterval` (`.never` is the longest interval).
        public init(_ timeInterval: DispatchTimeInterval) {
            self.init(nanosecondStride: NanosecondStride(timeInterval))
        }

        /// The interval as Dispatch writes it.
        public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

        /// The interval as a Swift `Duration`.
        @inlinable public var duration: Duration { .nanoseconds(magnitude) }

        @inlinable public static func seconds(_ s: Int) -> Self { Self(nanosecondStride: .seconds(s)) }
        @inlinable public static func seconds(_ s: Double) -> Self { Self(nanosecondStride: .seconds(s)) }
        @inlinable public static func milliseconds(_ ms: Int) -> Self { Self(nanosecondStride: .milliseconds(ms)) }
        @inlinable public static func microseconds(_ us: Int) -> Self { Self(nanosecondStride: .microseconds(us)) }
        @inlinable public static func nanoseconds(_ ns: Int) -> Self { Self(nanosecondStride: .nanoseconds(ns)) }

        @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
        @inlinable
        public static func + (lhs: Self, rhs: Self) -> Self {
            .nanoseconds(lhs.magnitude.addingSaturating(rhs.magnitude))
        }
        @inlinable
        public static func - (lhs: Self, rhs: Self) -> Self {
            .nanoseconds(lhs.magnitude.subtractingSaturating(rhs.magnitude))
        }
        @inlinable public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
        @inlinable public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }

        /// Zero, as Combine's `*` on this type gives.
        @inlinable public static func * (lhs: Self, rhs: Self) -> Self { .zero }

        /// Sets `lhs` to zero, as Combine's `*=` on this type does.
        @inlinable public static func *= (lhs: inout Self, rhs: Self) { lhs = .zero }

        public var description: String { "\(magnitude)ns" }

        private enum CodingKeys: String, CodingKey {
            case nanoseconds = "_nanoseconds"
        }

        public init(from decoder: any Decoder) throws {
            magnitude = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .nanoseconds)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(magnitude, forKey: .nanoseconds)
        }
    }
}
