import Dispatch
import Testing
import Sluice
import SluiceTesting

@Suite("AnyScheduler forwards every call to the scheduler it wraps", .timeLimit(.minutes(12)))
struct AnySchedulerTests {
    /// A scheduler that records each call it gets (with its arguments) and runs nothing
    /// until asked.
    final class RecordingScheduler: Scheduler, Sendable {
        typealias SchedulerTimeType = VirtualTime
        typealias SchedulerOptions = String

        let calls = Locked<[String]>([])
        let actions = Locked<[@Sendable () -> Void]>([])
        let cancels = Locked(0)

        var now: SchedulerTimeType { .init(nanoseconds: 42) }
        var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(7) }

        func schedule(options: String?, _ action: @escaping @Sendable () -> Void) {
            record("schedule \(options ?? "nil")", action)
        }

        func schedule(
            after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: String?,
            _ action: @escaping @Sendable () -> Void
        ) {
            record("after \(date.nanoseconds) \(tolerance) \(options ?? "nil")", action)
        }

        func schedule(
            after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
            options: String?, _ action: @escaping @Sendable () -> Void
        ) -> any Cancellable {
            record("every \(date.nanoseconds) \(interval) \(tolerance) \(options ?? "nil")", action)
            return AnyCancellable { self.cancels.withLock { $0 += 1 } }
        }

        private func record(_ call: String, _ action: @escaping @Sendable () -> Void) {
            calls.withLock { $0.append(call) }
            actions.withLock { $0.append(action) }
        }

        func runAll() { for action in actions.withLock({ $0 }) { action() } }
    }

    @Test("now, minimumTolerance and the three schedule forms reach the wrapped scheduler, arguments intact")
    func forwardsEveryCall() {
        let wrapped = RecordingScheduler()
        let scheduler = AnyScheduler(wrapped)
        #expect(scheduler.now == .init(nanoseconds: 42))
        #expect(scheduler.minimumTolerance == .nanoseconds(7))
        let ran = Locked<[Int]>([])
        scheduler.schedule(options: "a") { ran.withLock { $0.append(1) } }
        scheduler.schedule(after: .init(nanoseconds: 5), tolerance: .nanoseconds(2), options: "b") { ran.withLock { $0.append(2) } }
        let cancellable = scheduler.schedule(
            after: .init(nanoseconds: 6), interval: .nanoseconds(3), tolerance: .nanoseconds(1), options: nil
        ) { ran.withLock { $0.append(3) } }
        // The protocol's conveniences go through the same forwarding, with the wrapped tolerance.
        scheduler.schedule(after: .init(nanoseconds: 8)) { ran.withLock { $0.append(4) } }
        #expect(wrapped.calls.withLock { $0 } == [
            "schedule a", "after 5 2ns b", "every 6 3ns 1ns nil", "after 8 7ns nil",
        ])
        wrapped.runAll()
        #expect(ran.withLock { $0 } == [1, 2, 3, 4])
        cancellable.cancel()
        #expect(wrapped.cancels.withLock { $0 } == 1)
    }

    @Test("a TestScheduler stands in for a DispatchQueue: both erase to the same type")
    func testSchedulerStandsInForAQueue() {
        typealias QueueScheduler = AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
        let live: QueueScheduler = AnyScheduler(DispatchQueue.main)
        let test = DispatchQueue.test
        let standIn: QueueScheduler = test.eraseToAnyScheduler()
        #expect(live.minimumTolerance == .zero)
        let ran = Locked(0)
        standIn.schedule(after: standIn.now.advanced(by: .seconds(1))) { ran.withLock { $0 += 1 } }
        test.advance(by: .milliseconds(999))
        #expect(ran.withLock { $0 } == 0)
        test.advance(by: .milliseconds(1))
        #expect(ran.withLock { $0 } == 1)
        #expect(standIn.now == test.now)
    }

    @Test("erasing an AnyScheduler again gives it back unchanged")
    func eraseIsIdempotent() {
        let test = VirtualTimeScheduler()
        let erased = test.eraseToAnyScheduler()
        let again = erased.eraseToAnyScheduler()
        test.advance(by: .seconds(3))
        #expect(again.now == test.now)
        let ran = Locked(0)
        again.schedule { ran.withLock { $0 += 1 } }
        test.advance()
        #expect(ran.withLock { $0 } == 1)
    }

    @Test("it is Sendable: one may be used from any task")
    func sendable() async {
        let scheduler = AnyScheduler(ClockScheduler(clock: ContinuousClock()))
        let log = IsolationLog<Int>()
        await Task.detached { scheduler.schedule { log.record(1, isolated: true) } }.value
        await log.wait(for: 1)
        #expect(log.values == [1])
    }
}
