import Dispatch
import Testing
import Sluice

@Suite("DispatchQueue as a scheduler", .timeLimit(.minutes(12)))
struct DispatchQueueSchedulerTests {
    /// A serial queue that can tell whether code runs on it.
    final class Queue: Sendable {
        let queue = DispatchQueue(label: "DispatchQueueSchedulerTests")
        private let key = DispatchSpecificKey<UInt8>()
        init() { queue.setSpecific(key: key, value: 1) }
        var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
    }

    @Test("schedule runs the action on the queue, never inline, even from the queue itself")
    func scheduleIsAsynchronous() async {
        let serial = Queue()
        let log = IsolationLog<Int>()
        let ranInline = serial.queue.sync {
            serial.queue.schedule { log.record(1, isolated: serial.isCurrent) }
            return !log.values.isEmpty
        }
        #expect(!ranInline)
        await log.wait(for: 1)
        #expect(log.allIsolated)
    }

    @Test("actions run in the order scheduled on a serial queue")
    func serialOrder() async {
        let serial = Queue()
        let log = IsolationLog<Int>()
        for i in 0..<100 { serial.queue.schedule { log.record(i, isolated: serial.isCurrent) } }
        await log.wait(for: 100)
        #expect(log.values == Array(0..<100))
    }

    @Test("a timed action runs on the queue once its date has passed")
    func afterRunsAfterTheDeadline() async {
        let serial = Queue()
        let log = IsolationLog<Bool>()
        let date = serial.queue.now.advanced(by: .milliseconds(20))
        serial.queue.schedule(after: date) { log.record(serial.queue.now >= date, isolated: serial.isCurrent) }
        await log.wait(for: 1)
        #expect(log.values == [true])
        #expect(log.allIsolated)
    }

    /// Runs a repeating action until it has run three times, ends it with `end`, then waits
    /// for a timed marker well past several more intervals: the count must not have moved.
    func repeatingStops(end: (inout (any Cancellable)?) -> Void) async {
        let serial = Queue()
        let runs = IsolationLog<Int>()
        var cancellable: (any Cancellable)? = serial.queue.schedule(
            after: serial.queue.now, interval: .milliseconds(1), tolerance: .zero, options: nil
        ) { runs.record(0, isolated: serial.isCurrent) }
        await runs.wait(for: 3)
        end(&cancellable)
        let stopped = serial.queue.sync { runs.values.count }  // a run in progress has finished
        let marker = IsolationLog<Int>()
        serial.queue.schedule(after: serial.queue.now.advanced(by: .milliseconds(20))) {
            marker.record(runs.values.count, isolated: serial.isCurrent)
        }
        await marker.wait(for: 1)
        #expect(marker.values == [stopped])
        #expect(runs.allIsolated)
    }

    @Test("a repeating timer runs until cancelled, then no more")
    func repeatingStopsOnCancel() async {
        await repeatingStops { $0?.cancel() }
    }

    @Test("a repeating timer stops when its cancellable is released")
    func repeatingStopsOnRelease() async {
        await repeatingStops { $0 = nil }
    }

    @Test("options.group: the action joins the group until it has run, timed or not")
    func optionsGroupJoinsTheGroup() async {
        let serial = Queue()
        let group = DispatchGroup()
        let log = IsolationLog<String>()
        let options = DispatchQueue.SchedulerOptions(group: group)
        let joined = serial.queue.sync {
            serial.queue.schedule(options: options) { log.record("now", isolated: serial.isCurrent) }
            serial.queue.schedule(after: serial.queue.now.advanced(by: .milliseconds(5)), tolerance: .zero, options: options) {
                log.record("after", isolated: serial.isCurrent)
            }
            return group.wait(timeout: .now()) == .timedOut
        }
        #expect(joined)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
        #expect(Set(log.values) == ["now", "after"])
    }

    @Test("distance and advanced are exact within uptime and meet Dispatch's never at its ends")
    func timeTypeEnds() {
        typealias Time = DispatchQueue.SchedulerTimeType
        let early = Time(DispatchTime(uptimeNanoseconds: 10))
        let late = Time(DispatchTime(uptimeNanoseconds: 1_000))
        #expect(early.distance(to: late) == .nanoseconds(990))
        #expect(late.distance(to: early) == .nanoseconds(-990))
        #expect(early.advanced(by: .nanoseconds(990)) == late)
        #expect(late.advanced(by: .nanoseconds(-990)) == early)
        // Going before the start of uptime stops at its first nanosecond (0 would mean "now").
        #expect(early.advanced(by: .seconds(-1)).dispatchTime.uptimeNanoseconds == 1)
        #expect(early.advanced(by: .nanoseconds(.min)).dispatchTime.uptimeNanoseconds == 1)
        // Past Int64.max nanoseconds is Dispatch's "never", as is a stride of .max from anywhere.
        let last = Time(DispatchTime(uptimeNanoseconds: UInt64(Int64.max)))
        #expect(early.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
        #expect(early.advanced(by: .nanoseconds(.max - 10)) == last)
        #expect(last.advanced(by: .nanoseconds(1)).dispatchTime == .distantFuture)
        let never = Time(.distantFuture)
        #expect(never.advanced(by: .seconds(-1)) == never)
        // A distance beyond Int.max nanoseconds, either way, is .max; one within it is exact.
        #expect(early.distance(to: last) == .nanoseconds(.max - 10))
        #expect(last.distance(to: early) == .nanoseconds(-(.max - 10)))
        #expect(early.distance(to: never) == .nanoseconds(.max))
        #expect(never.distance(to: early) == .nanoseconds(.max))
        #expect(never.distance(to: never) == .zero)
        #expect(early < late)
    }
}
