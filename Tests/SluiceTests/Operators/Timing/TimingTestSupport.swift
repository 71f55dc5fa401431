import Dispatch
@_spi(Internals) import Sluice
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
