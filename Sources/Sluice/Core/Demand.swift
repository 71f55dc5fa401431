extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    ///
    /// Demand is a count that never goes negative and saturates at ``unlimited``: arithmetic that would
    /// overflow gives `.unlimited`, subtraction that would go below zero gives ``none``, and anything
    /// involving `.unlimited` on the left stays `.unlimited`.
    ///
    /// <!-- snippet: DemandArithmetic -->
    /// ```swift
    /// var demand = Subscribers.Demand.max(2)
    /// demand += 3                                          // .max(5)
    /// demand -= 10                                         // .none, never negative
    /// let saturated = Subscribers.Demand.max(.max) + 1     // .unlimited
    /// ```
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, Sendable, CustomStringConvertible {
        /// The count; `unlimitedRaw` stands for `.unlimited`. Finite values are at most `Int.max`.
        @usableFromInline
        internal let rawValue: UInt

        @inlinable
        internal static var unlimitedRaw: UInt { UInt(Int.max) + 1 }

        @inlinable
        @inline(__always)
        internal init(rawValue: UInt) {
            self.rawValue = Swift.min(rawValue, Self.unlimitedRaw)
        }

        /// A request for as many values as the publisher can produce.
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: unlimitedRaw) }

        /// A request for no elements from the publisher.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// Creates a demand for the given maximum number of elements; traps if it is negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            if value < 0 { Violation.negativeDemand(value) }
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` if unlimited.
        @inlinable
        public var max: Int? {
            rawValue == Self.unlimitedRaw ? nil : Int(rawValue)
        }

        /// `"unlimited"` or `"max(n)"`, as Combine prints it.
        public var description: String {
            rawValue == Self.unlimitedRaw ? "unlimited" : "max(\(rawValue))"
        }

        /// Creates a demand from a decoder; the encoding is the count as one unsigned integer.
        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(UInt.self))
        }

        /// Encodes the demand as one unsigned integer.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}

// MARK: - Arithmetic

extension Subscribers.Demand {
    /// Adds two demands; `.unlimited` on either side, or overflow, gives `.unlimited`.
    @inlinable
    public static func + (lhs: Self, rhs: Self) -> Self {
        if lhs.rawValue == unlimitedRaw || rhs.rawValue == unlimitedRaw { return .unlimited }
        let (sum, overflow) = Int(lhs.rawValue).addingReportingOverflow(Int(rhs.rawValue))
        return overflow ? .unlimited : Self(rawValue: UInt(sum))
    }

    /// Adds a demand to this one; saturates as `+` does.
    @inlinable
    public static func += (lhs: inout Self, rhs: Self) {
        if lhs.rawValue == unlimitedRaw { return }
        lhs = lhs + rhs
    }

    /// Adds a count; traps if the result is negative, as `.max(_:)` would.
    @inlinable
    public static func + (lhs: Self, rhs: Int) -> Self {
        if lhs.rawValue == unlimitedRaw { return .unlimited }
        let (sum, overflow) = Int(lhs.rawValue).addingReportingOverflow(rhs)
        return overflow ? .unlimited : .max(sum)
    }

    /// Adds a count to this demand; traps, as `+` does, if the result is negative.
    @inlinable
    public static func += (lhs: inout Self, rhs: Int) {
        lhs = lhs + rhs
    }

    /// Multiplies a demand by a count; overflow gives `.unlimited`.
    @inlinable
    public static func * (lhs: Self, rhs: Int) -> Self {
        if lhs.rawValue == unlimitedRaw { return .unlimited }
        let (product, overflow) = Int(lhs.rawValue).multipliedReportingOverflow(by: rhs)
        return overflow ? .unlimited : .max(product)
    }

    /// Multiplies this demand by a count; overflow gives `.unlimited`.
    @inlinable
    public static func *= (lhs: inout Self, rhs: Int) {
        lhs = lhs * rhs
    }

    /// Subtracts a demand; never below `.none`; `.unlimited` minus anything is `.unlimited`,
    /// and a finite demand minus `.unlimited` is `.none`.
    @inlinable
    public static func - (lhs: Self, rhs: Self) -> Self {
        if lhs.rawValue == unlimitedRaw { return .unlimited }
        if rhs.rawValue == unlimitedRaw { return .none }
        return lhs.rawValue > rhs.rawValue ? Self(rawValue: lhs.rawValue - rhs.rawValue) : .none
    }

    /// Subtracts a demand from this one; never below `.none`.
    @inlinable
    public static func -= (lhs: inout Self, rhs: Self) {
        lhs = lhs - rhs
    }

    /// Subtracts a count; never below `.none`. A negative count whose subtraction would pass `Int.max`
    /// gives `.none`, as Combine's does (it does not saturate to `.unlimited`).
    @inlinable
    public static func - (lhs: Self, rhs: Int) -> Self {
        if lhs.rawValue == unlimitedRaw { return .unlimited }
        let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
        if overflow { return .none }
        return difference < 0 ? .none : Self(rawValue: UInt(difference))
    }

    /// Subtracts a count from this demand; never below `.none`.
    @inlinable
    public static func -= (lhs: inout Self, rhs: Int) {
        lhs = lhs - rhs
    }
}

// MARK: - Comparison

extension Subscribers.Demand {
    /// Orders demands; `.unlimited` is greater than every finite demand.
    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether the demand is greater than a count; `.unlimited` is greater than any.
    @inlinable
    public static func > (lhs: Self, rhs: Int) -> Bool {
        rhs < 0 || lhs.rawValue > UInt(rhs)
    }

    /// Whether the demand is at least a count; `.unlimited` is at least any.
    @inlinable
    public static func >= (lhs: Self, rhs: Int) -> Bool {
        rhs < 0 || lhs.rawValue >= UInt(rhs)
    }

    /// Whether the demand is less than a count; `.unlimited` is less than none.
    @inlinable
    public static func < (lhs: Self, rhs: Int) -> Bool { !(lhs >= rhs) }

    /// Whether the demand is at most a count; `.unlimited` is at most none.
    @inlinable
    public static func <= (lhs: Self, rhs: Int) -> Bool { !(lhs > rhs) }

    /// Whether a count is greater than the demand; no count exceeds `.unlimited`.
    @inlinable
    public static func > (lhs: Int, rhs: Self) -> Bool { rhs < lhs }

    /// Whether a count is at least the demand; none is at least `.unlimited`.
    @inlinable
    public static func >= (lhs: Int, rhs: Self) -> Bool { rhs <= lhs }

    /// Whether a count is less than the demand; every count is less than `.unlimited`.
    @inlinable
    public static func < (lhs: Int, rhs: Self) -> Bool { rhs > lhs }

    /// Whether a count is at most the demand; every count is at most `.unlimited`.
    @inlinable
    public static func <= (lhs: Int, rhs: Self) -> Bool { rhs >= lhs }

    /// Whether the demand equals a count; `.unlimited` equals none.
    @inlinable
    public static func == (lhs: Self, rhs: Int) -> Bool {
        rhs >= 0 && lhs.rawValue == UInt(rhs)
    }

    /// Whether the demand differs from a count; `.unlimited` differs from every count.
    @inlinable
    public static func != (lhs: Self, rhs: Int) -> Bool { !(lhs == rhs) }

    /// Whether a count equals the demand; no count equals `.unlimited`.
    @inlinable
    public static func == (lhs: Int, rhs: Self) -> Bool { rhs == lhs }

    /// Whether a count differs from the demand; every count differs from `.unlimited`.
    @inlinable
    public static func != (lhs: Int, rhs: Self) -> Bool { !(rhs == lhs) }
}
