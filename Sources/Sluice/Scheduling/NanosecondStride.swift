/// A signed interval counted in whole nanoseconds: the stride of Sluice's nanosecond schedulers
/// (``ClockScheduler``, the test schedulers' virtual time). `DispatchQueue`'s has the same API but is its own
/// type, as Combine gives it rules of its own.
///
/// A literal is a number of seconds, as in Combine: `debounce(for: 0.3, scheduler: queue)` waits 300
/// milliseconds. Arithmetic saturates rather than overflowing: `.seconds(.max)` is the longest interval.
public struct NanosecondStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Codable,
    ExpressibleByFloatLiteral, Sendable, CustomStringConvertible
{
    /// The interval in nanoseconds (negative for an interval backwards in time).
    public var magnitude: Int

    /// The interval of `nanoseconds` nanoseconds.
    @inlinable public init(nanoseconds: Int) { magnitude = nanoseconds }

    /// An interval of `value` seconds.
    @inlinable public init(integerLiteral value: Int) { self = .seconds(value) }

    /// An interval of `value` seconds, rounded to the nanosecond.
    @inlinable public init(floatLiteral value: Double) { self = .seconds(value) }

    /// An interval of `source` nanoseconds, if `source` fits in an `Int`.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let nanoseconds = Int(exactly: source) else { return nil }
        magnitude = nanoseconds
    }

    @inlinable public static func seconds(_ s: Int) -> Self {
        Self(nanoseconds: s.multipliedSaturating(by: 1_000_000_000))
    }
    @inlinable public static func seconds(_ s: Double) -> Self { Self(nanoseconds: Int(saturating: s * 1e9)) }
    @inlinable public static func milliseconds(_ ms: Int) -> Self {
        Self(nanoseconds: ms.multipliedSaturating(by: 1_000_000))
    }
    @inlinable public static func microseconds(_ us: Int) -> Self {
        Self(nanoseconds: us.multipliedSaturating(by: 1_000))
    }
    @inlinable public static func nanoseconds(_ ns: Int) -> Self { Self(nanoseconds: ns) }

    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }

    @inlinable public static func + (lhs: Self, rhs: Self) -> Self {
        Self(nanoseconds: lhs.magnitude.addingSaturating(rhs.magnitude))
    }
    @inlinable public static func - (lhs: Self, rhs: Self) -> Self {
        Self(nanoseconds: lhs.magnitude.subtractingSaturating(rhs.magnitude))
    }
    @inlinable public static func * (lhs: Self, rhs: Self) -> Self {
        Self(nanoseconds: lhs.magnitude.multipliedSaturating(by: rhs.magnitude))
    }
    @inlinable public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
    @inlinable public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
    @inlinable public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }

    /// The interval as a Swift `Duration`.
    @inlinable public var duration: Duration { .nanoseconds(magnitude) }

    public var description: String { "\(magnitude)ns" }
}

extension Int {
    /// `self + other`, clamped to `Int.min...Int.max`.
    @inlinable
    func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, clamped to `Int.min...Int.max` (`-other` would overflow for `Int.min`).
    @inlinable
    func subtractingSaturating(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// `self * other`, clamped to `Int.min...Int.max`.
    @inlinable
    func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }

    /// `value` rounded to the nearest integer, clamped to `Int.min...Int.max` (0 for NaN).
    @inlinable
    init(saturating value: Double) {
        // -2^63 is `Int.min` exactly; the largest `Double` below 2^63 fits in an `Int`.
        let bound = -Double(Int.min)
        let rounded = value.rounded()
        if rounded.isNaN {
            self = 0
        } else if rounded >= bound {
            self = .max
        } else if rounded < -bound {
            self = .min
        } else {
            self = Int(rounded)
        }
    }
}
