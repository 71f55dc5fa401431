import Testing
import Sluice

@Suite("ImmediateScheduler runs every action at once, on the calling thread")
struct ImmediateSchedulerTests {
    @Test("schedule runs the action before it returns")
    func scheduleRunsInline() {
        let ran = Locked(0)
        ImmediateScheduler.shared.schedule { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 1)
    }

    @Test("a timed action runs at once, however far its date")
    func timedRunsInline() {
        let scheduler = ImmediateScheduler.shared
        let ran = Locked(0)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3_600))) { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 1)
    }

    @Test("a repeating action runs once, at once, and its cancellable is Combine's empty subscription")
    func repeatingRunsOnce() {
        let scheduler = ImmediateScheduler.shared
        let ran = Locked(0)
        let cancellable = scheduler.schedule(after: scheduler.now, interval: .milliseconds(1)) { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 1)
        #expect(String(describing: cancellable) == "Empty")
        cancellable.cancel()
        #expect(ran.withLock { $0 } == 1)
    }

    @Test("its clock never moves, and its time type saturates")
    func clockStandsStill() {
        let scheduler = ImmediateScheduler.shared
        let before = scheduler.now
        scheduler.schedule {}
        #expect(scheduler.now == before, "the clock moved across a scheduled action")
        #expect(scheduler.minimumTolerance == .zero)
        let far = ImmediateScheduler.SchedulerTimeType(nanoseconds: .max - 1)
        #expect(far.advanced(by: .seconds(1)).nanoseconds == .max)
        #expect(ImmediateScheduler.SchedulerTimeType(nanoseconds: .min).distance(to: far) == .nanoseconds(.max))
    }
}
