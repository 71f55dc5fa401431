/// A deadline with at most one scheduled run at a time (`debounce`'s due time on Sluice's own
/// interval): moving the deadline later schedules nothing; the run, when it comes early,
/// schedules one more run for the new deadline. So a steady stream of values schedules one
/// action per deadline that passes, not one per value.
///
/// ```text
/// off ──set(t)──▶ armed(for: t, due: t) ──set(t')──▶ armed(for: t, due: t')
///                    │ fired: due == for: expired      │ fired: due > for: armed(for: t', due: t')
/// ```
@usableFromInline
struct Deadline<Time: Comparable> {
    /// When it expires; `nil` when off.
    @usableFromInline var due: Time?
    /// The time the one scheduled run is for, if one is scheduled.
    @usableFromInline var scheduledFor: Time?

    @inlinable init() {}

    /// What a run of the timer found.
    @usableFromInline
    enum Run {
        /// The deadline passed.
        case expired
        /// It had moved: schedule the timer again, for this time.
        case rescheduled(Time)
        /// It was switched off.
        case off
    }

    /// Sets the deadline to `time`; returns the time to schedule the timer for, if no run is scheduled yet.
    @inlinable
    mutating func set(_ time: Time) -> Time? {
        due = time
        guard scheduledFor == nil else { return nil }
        scheduledFor = time
        return time
    }

    /// Switches the deadline off: the scheduled run, if any, will find nothing.
    @inlinable mutating func clear() { due = nil }

    /// The scheduled run has come.
    @inlinable
    mutating func fired() -> Run {
        let scheduled = scheduledFor
        scheduledFor = nil
        guard let due, let scheduled else { return .off }
        if scheduled < due {
            scheduledFor = due
            return .rescheduled(due)
        }
        self.due = nil
        return .expired
    }
}
