import Dispatch
import Sluice
import SluiceTesting

/// The failure the timing tests fail publishers with.
struct TimingFailure: Error, Equatable {}

/// A recorder of `Int`s that may fail with ``TimingFailure``.
typealias TimingRecorder = RecordingSubscriber<Int, TimingFailure>

/// A value and the virtual time, in milliseconds, at which a subscriber received it.
struct Stamp: Equatable, CustomStringConvertible {
    var value: Int
    var ms: Int
    init(_ value: Int, at ms: Int) {
        self.value = value
        self.ms = ms
    }
    var description: String { "\(value)@\(ms)ms" }
}

extension VirtualTimeScheduler {
    /// The clock, in whole milliseconds.
    var ms: Int { now.nanoseconds / 1_000_000 }

    /// Moves the clock to `ms` milliseconds after the start.
    func advance(toMs ms: Int) { advance(to: .init(nanoseconds: ms * 1_000_000)) }
}

/// Notes the virtual time of each value `recorder` receives; the recorder returns `demand`
/// from each `receive(_:)`.
func stamps(of recorder: TimingRecorder, on scheduler: VirtualTimeScheduler, demand: Subscribers.Demand = .none) -> Locked<[Stamp]> {
    let stamps = Locked<[Stamp]>([])
    recorder.onValue { value in
        stamps.withLock { $0.append(Stamp(value, at: scheduler.ms)) }
        return demand
    }
    return stamps
}

/// A subscriber that notes whether it is still alive, for the release checks.
final class WeakBox<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}

/// A serial queue for the thread tests' scheduler, and one for their upstream's sends.
func timingQueues(_ name: String) -> (scheduler: DispatchQueue, sender: DispatchQueue) {
    (DispatchQueue(label: "sluice.timing.\(name).scheduler"), DispatchQueue(label: "sluice.timing.\(name).sender"))
}

/// A scheduler on virtual time that notes every call an operator makes to it (each read of
/// `now` and `minimumTolerance`, each kind of `schedule`), so that a test can compare the
/// sequence with Combine's. Time and actions are a ``VirtualTimeScheduler``'s; its
/// `minimumTolerance` is 7 ns, so that tolerances can be told apart.
final class CallLoggingScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = VirtualTimeScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    /// One call, with the time asked for in nanoseconds.
    enum Call: Equatable {
        case now, minimumTolerance, schedule
        case scheduleAfter(Int, tolerance: Int)
        case scheduleRepeating(Int, interval: Int, tolerance: Int)
    }

    let clock = VirtualTimeScheduler()
    private let log = Locked<[Call]>([])

    /// The calls so far.
    var calls: [Call] { log.withLock { $0 } }

    var now: SchedulerTimeType {
        log.withLock { $0.append(.now) }
        return clock.now
    }

    var minimumTolerance: SchedulerTimeType.Stride {
        log.withLock { $0.append(.minimumTolerance) }
        return .nanoseconds(7)
    }

    func schedule(options: Never?, _ action: @escaping @Sendable () -> Void) {
        log.withLock { $0.append(.schedule) }
        clock.schedule(action)
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping @Sendable () -> Void) {
        log.withLock { $0.append(.scheduleAfter(date.nanoseconds, tolerance: tolerance.magnitude)) }
        clock.schedule(after: date, tolerance: tolerance, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        log.withLock { $0.append(.scheduleRepeating(date.nanoseconds, interval: interval.magnitude, tolerance: tolerance.magnitude)) }
        return clock.schedule(after: date, interval: interval, tolerance: tolerance, action)
    }

    /// Moves the clock to `ns` nanoseconds after the start (not a call of the operator's).
    func advance(toNs ns: Int) { clock.advance(to: .init(nanoseconds: ns)) }
}
