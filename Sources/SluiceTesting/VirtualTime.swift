import Sluice

/// The time of a ``VirtualTimeScheduler`` (and of an ``ImmediateTestScheduler`` made with
/// `init()`): nanoseconds from an arbitrary origin, moved only by the scheduler's `advance`.
///
/// Its stride is `NanosecondStride`, so `.seconds(2)`, `.milliseconds(5)` and a literal number
/// of seconds read as they do on a `DispatchQueue`. Arithmetic saturates at the ends of `Int`
/// rather than trapping.
public struct VirtualTime: Strideable, Hashable, Sendable, CustomStringConvertible {
    /// Intervals in nanoseconds; a literal is a number of seconds.
    public typealias Stride = NanosecondStride

    /// Nanoseconds since the origin.
    public var nanoseconds: Int

    /// The instant `nanoseconds` after the origin.
    @inlinable public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

    /// The interval from this instant to `other`, saturating.
    @inlinable
    public func distance(to other: Self) -> Stride {
        let (difference, overflow) = other.nanoseconds.subtractingReportingOverflow(nanoseconds)
        return .nanoseconds(overflow ? (other.nanoseconds > nanoseconds ? .max : .min) : difference)
    }

    /// The instant `n` after this one, saturating.
    @inlinable
    public func advanced(by n: Stride) -> Self {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(n.magnitude)
        return Self(nanoseconds: overflow ? (n.magnitude > 0 ? .max : .min) : sum)
    }

    /// `VirtualTime(nanoseconds: n)`.
    public var description: String { "VirtualTime(nanoseconds: \(nanoseconds))" }
}
