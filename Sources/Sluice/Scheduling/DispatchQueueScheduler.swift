import Dispatch

/// `DispatchQueue` as a scheduler, as Combine declares it: `receive(on: DispatchQueue.main)`,
/// `debounce(for: .milliseconds(300), scheduler: queue)`.
///
/// Actions run asynchronously on the queue (never inline, even on the queue itself): on a serial queue in
/// the order scheduled, on a concurrent one possibly at once (`receive(on:)` keeps its own order). Timed
/// actions use `asyncAfter`; repeating ones a `DispatchSourceTimer` on the queue, whose handler never
/// overlaps itself. Every call's action is checked, short forms included (a ``SendableActionScheduler``).
extension DispatchQueue: SendableActionScheduler {
    /// A point in time on the `DispatchTime` clock (uptime, which stops while the machine sleeps).
    public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
        /// The instant, as Dispatch measures it.
        public var dispatchTime: DispatchTime

        /// The instant `time`.
        public init(_ time: DispatchTime) { dispatchTime = time }

        /// The interval to `other`, exact within `Int.max` nanoseconds; a longer one (to or from
        /// `.distantFuture`) is `.nanoseconds(.max)` either way, as in Combine: Dispatch's "never".
        public func distance(to other: Self) -> Stride {
            let (start, end) = (dispatchTime.uptimeNanoseconds, other.dispatchTime.uptimeNanoseconds)
            let (span, forwards) = end >= start ? (end - start, true) : (start - end, false)
            guard let nanoseconds = Int(exactly: span) else { return .nanoseconds(.max) }
            return .nanoseconds(forwards ? nanoseconds : -nanoseconds)
        }

        /// This instant moved by `n`, as Dispatch moves one. `.distantFuture` is where `.nanoseconds(.max)`
        /// (the "never" of `distance(to:)`) or a move past `Int64.max` nanoseconds leads, and no move leaves
        /// it. A move backwards stops at the first nanosecond of uptime (0 would mean "now" to Dispatch).
        public func advanced(by n: Stride) -> Self {
            if n.magnitude == .max || dispatchTime == .distantFuture { return Self(.distantFuture) }
            let start = dispatchTime.uptimeNanoseconds
            let nanoseconds: UInt64
            if n.magnitude >= 0 {
                let (moved, overflow) = start.addingReportingOverflow(UInt64(n.magnitude))
                if overflow || moved > UInt64(Int64.max) { return Self(.distantFuture) }
                nanoseconds = moved
            } else {
                let (moved, overflow) = start.subtractingReportingOverflow(UInt64(n.magnitude.magnitude))
                nanoseconds = overflow ? 1 : moved
            }
            return Self(DispatchTime(uptimeNanoseconds: Swift.max(nanoseconds, 1)))
        }

        public init(from decoder: any Decoder) throws {
            dispatchTime = DispatchTime(uptimeNanoseconds: try decoder.singleValueContainer().decode(UInt64.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.dispatchTime == rhs.dispatchTime }
        public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.uptimeNanoseconds) }
    }

    /// How the queue runs a scheduled action: the work item's quality of service and flags, and a group it
    /// joins while it waits and runs.
    public struct SchedulerOptions {
        /// The work item's quality of service.
        public var qos: DispatchQoS
        /// The work item's flags.
        public var flags: DispatchWorkItemFlags
        /// A group the work item joins, if any.
        public var group: DispatchGroup?

        /// Options for a work item; the defaults are those of `DispatchQueue.async`.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// Zero: Dispatch may still coalesce timers, but is asked not to.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// The current uptime.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// Runs `action` asynchronously on the queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags, execute: action)
    }

    /// Runs `action` on the queue once `date` has passed.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        let options = options ?? SchedulerOptions()
        if let group = options.group {
            // `asyncAfter` takes no group: join it now, leave it when the action has run.
            group.enter()
            asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) {
                action()
                group.leave()
            }
        } else {
            asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags, execute: action)
        }
    }

    /// Runs `action` on the queue at `date` and every `interval` after, from a timer source, until the
    /// returned cancellable is cancelled or released.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let options = options ?? SchedulerOptions()
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(qos: options.qos, flags: options.flags, handler: action)
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval, leeway: tolerance.timeInterval)
        timer.resume()
        return AnyCancellable(isolation: nil) { timer.cancel() }
    }
}

extension NanosecondStride {
    /// The interval as Dispatch writes it.
    public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

    /// The interval `timeInterval` (`.never` is the longest interval).
    public init(_ timeInterval: DispatchTimeInterval) {
        switch timeInterval {
        case .seconds(let s): self = .seconds(s)
        case .milliseconds(let ms): self = .milliseconds(ms)
        case .microseconds(let us): self = .microseconds(us)
        case .nanoseconds(let ns): self = .nanoseconds(ns)
        case .never: self = .nanoseconds(.max)
        @unknown default: self = .nanoseconds(.max)
        }
    }

    /// An interval of `seconds` seconds, as Combine's `Stride(_: TimeInterval)`.
    public init(_ seconds: Double) { self = .seconds(seconds) }
}

extension DispatchQueue: CoalescingScheduler {}
