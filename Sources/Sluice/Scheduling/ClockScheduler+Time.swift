extension ClockScheduler {
    /// A point in time on the scheduler's clock: an instant of `C`.
    ///
    /// Its stride is a ``NanosecondStride``, as for Sluice's other nanosecond schedulers, so that
    /// `.milliseconds(300)` and the literal `0.3` mean the same here as on a `DispatchQueue`.
    /// Moving an instant by a stride, or measuring between two, is exact to the nanosecond, and
    /// a distance beyond `Int.max` nanoseconds (about 292 years) saturates.
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
        /// The priority of the tasks the scheduler starts for the action: the one that waits on
        /// the clock for a timed action, and the one that runs the queue if none runs it yet
        /// (a queue already running keeps the priority it started with). `nil`: the priority
        /// `Task.init` gives by default.
        public var priority: TaskPriority?

        /// Options for an action; by default, the priority `Task.init` gives.
        @inlinable public init(priority: TaskPriority? = nil) { self.priority = priority }
    }
}

extension NanosecondStride {
    /// The interval `duration`, rounded towards zero to the nanosecond, clamped to
    /// `Int.min...Int.max` nanoseconds.
    ///
    /// Labelled, unlike `init(_: DispatchTimeInterval)`: Combine's `DispatchQueue` stride has
    /// one unlabelled initializer, and a second would make `Stride(.seconds(2))` ambiguous.
    @inlinable
    public init(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(
            Int(clamping: seconds).multipliedSaturating(by: 1_000_000_000)
                .addingSaturating(Int(attoseconds / 1_000_000_000)))
    }
}
