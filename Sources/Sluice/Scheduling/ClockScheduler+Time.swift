extension ClockScheduler {
    /// A point in time on the scheduler's clock: an instant of `C`.
    ///
    /// Its stride is a ``NanosecondStride``: `.milliseconds(300)` and `0.3` mean what they do on a
    /// `DispatchQueue`. Moves and distances are exact to the nanosecond, saturating beyond `Int.max` ns.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// The interval between two instants, in nanoseconds.
        public typealias Stride = NanosecondStride

        /// The instant, as the clock reads it.
        public var instant: C.Instant

        /// The instant `instant`.
        @inlinable public init(_ instant: C.Instant) { self.instant = instant }

        @inlinable
        public func distance(to other: Self) -> Stride { Stride(duration: instant.duration(to: other.instant)) }

        @inlinable
        public func advanced(by n: Stride) -> Self { Self(instant.advanced(by: n.duration)) }

        @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.instant < rhs.instant }
        @inlinable public static func == (lhs: Self, rhs: Self) -> Bool { lhs.instant == rhs.instant }
        @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(instant) }
    }

    /// How a ``ClockScheduler`` runs a scheduled action.
    public struct SchedulerOptions: Sendable, Equatable {
        /// The priority of the tasks started for the action: the one a timed action waits in, and the one
        /// that runs the queue if none does yet (a running queue keeps its own). `nil`: `Task.init`'s.
        public var priority: TaskPriority?

        /// Options for an action; by default, the priority `Task.init` gives.
        @inlinable public init(priority: TaskPriority? = nil) { self.priority = priority }
    }
}

extension NanosecondStride {
    /// The interval `duration`, rounded towards zero to the nanosecond, clamped to `Int.min...Int.max` ns.
    /// Labelled, as a second unlabelled initializer would make `Stride(.seconds(2))` ambiguous.
    @inlinable
    public init(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(
            Int(clamping: seconds).multipliedSaturating(by: 1_000_000_000)
                .addingSaturating(Int(attoseconds / 1_000_000_000)))
    }
}
