import Dispatch
import Testing
import Sluice
import SluiceTesting

@Suite("ClockScheduler on a TestClock: timing, order, repeating, cancel", .timeLimit(.minutes(12)))
struct ClockSchedulerTests {
    @Test("the scheduler's time is its clock's")
    func nowIsTheClocks() {
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock)
        #expect(scheduler.now.instant == clock.now)
        clock.advance(by: .seconds(2))
        #expect(scheduler.now == .init(.init(offset: .seconds(2))))
        #expect(scheduler.minimumTolerance == .zero)
    }

    @Test("time type: distance and advanced measure the clock's instants in nanoseconds, saturating")
    func timeType() {
        typealias Time = ClockScheduler<TestClock>.SchedulerTimeType
        let start = Time(.init(offset: .seconds(1)))
        #expect(start.advanced(by: .milliseconds(1_500)) == Time(.init(offset: .milliseconds(2_500))))
        #expect(start.distance(to: Time(.init(offset: .zero))) == .seconds(-1))
        #expect(start < start.advanced(by: .nanoseconds(1)))
        let far = Time(.init(offset: .seconds(Int64.max)))
        #expect(start.distance(to: far) == .nanoseconds(.max))
        #expect(far.distance(to: start) == .nanoseconds(.min))
        let continuous = ClockScheduler(clock: ContinuousClock())
        #expect(continuous.now.advanced(by: .seconds(1)) > continuous.now)
    }

    @Test("a timed action waits for the clock to reach its date, then runs")
    func timedActionWaitsForTheClock() async {
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock)
        let log = IsolationLog<Bool>()
        let date = scheduler.now.advanced(by: .seconds(1))
        scheduler.schedule(after: date) { log.record(scheduler.now >= date, isolated: true) }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)   // still waiting: the action cannot have run
        #expect(log.values.isEmpty)
        clock.advance(by: .milliseconds(1))
        await log.wait(for: 1)
        #expect(log.values == [true])
    }

    @Test("timed actions run in the order of their dates, each when the clock gets there")
    func timedActionsInDateOrder() async {
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock)
        let log = IsolationLog<Int>()
        for seconds in [3, 1, 2] {
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(seconds))) { log.record(seconds, isolated: true) }
        }
        await clock.waitForSleepers(3)
        for count in 1...3 {
            clock.advance(by: .seconds(1))
            await log.wait(for: count)
        }
        #expect(log.values == [1, 2, 3])
    }

    @Test("an action scheduled from inside a running one runs after it, not nested")
    func nestedScheduleQueuesBehind() async {
        let scheduler = ClockScheduler(clock: TestClock())
        let log = IsolationLog<String>()
        scheduler.schedule {
            log.record("a start", isolated: true)
            scheduler.schedule { log.record("b", isolated: true) }
            log.record("a end", isolated: true)
        }
        await log.wait(for: 3)
        #expect(log.values == ["a start", "a end", "b"])
    }

    @Test("a repeating action runs at each interval the clock passes, until cancelled")
    func repeatingUntilCancelled() async {
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock)
        let log = IsolationLog<Int>()
        let cancellable = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
            log.record(0, isolated: true)
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await log.wait(for: 1)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))   // passes the runs due at 2, 3 and 4
        await log.wait(for: 4)
        await clock.waitForSleepers(1)
        cancellable.cancel()
        #expect(clock.sleeperCount == 0)   // the cancel ended the task's sleep
        clock.advance(by: .seconds(10))
        let marker = IsolationLog<Int>()
        scheduler.schedule { marker.record(log.values.count, isolated: true) }
        await marker.wait(for: 1)
        #expect(marker.values == [4])
    }

    @Test("releasing a repeating action's cancellable ends it")
    func repeatingEndsOnRelease() async {
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock)
        var cancellable: (any Cancellable)? = scheduler.schedule(
            after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {}
        await clock.waitForSleepers(1)
        _ = cancellable
        cancellable = nil
        #expect(clock.sleeperCount == 0)
    }

    @Test("a repeating run already queued when the action is cancelled is skipped")
    func queuedRunSkippedAfterCancel() async {
        let clock = TestClock()
        // The blocking action runs on an actor of its own whose executor is a Dispatch queue, so
        // that it blocks none of the few threads the tests' tasks run on.
        let scheduler = ClockScheduler(clock: clock, actor: QueueBackedActor())
        let log = IsolationLog<String>()
        let blocker = DispatchSemaphore(value: 0)
        let started = IsolationLog<Int>()
        scheduler.schedule {
            started.record(0, isolated: true)
            blocker.wait(for: "the test to unblock the queue")  // holds the queue, so the next run waits behind this action
            log.record("blocker", isolated: true)
        }
        await started.wait(for: 1)
        let cancellable = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
            log.record("tick", isolated: true)
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)   // back asleep: its run has joined the queue
        cancellable.cancel()
        blocker.signal()
        scheduler.schedule { log.record("marker", isolated: true) }
        await log.wait(for: 2)
        #expect(log.values == ["blocker", "marker"])
    }

    @MainActor @Test("on the main actor, a timed action runs isolated to it once the clock reaches its date")
    func mainActorTimed() async {
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock, actor: MainActor.shared)
        let log = IsolationLog<String>()
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.record("timed", isolated: MainQueue.isCurrent) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await log.wait(for: 1)
        #expect(log.values == ["timed"])
        #expect(log.allIsolated)
    }

    @Test("options: a priority is accepted for every form")
    func optionsPriority() async {
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock)
        let options = ClockScheduler<TestClock>.SchedulerOptions(priority: .high)
        let log = IsolationLog<Int>()
        scheduler.schedule(options: options) { log.record(1, isolated: true) }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), tolerance: .zero, options: options) {
            log.record(2, isolated: true)
        }
        let repeating = scheduler.schedule(
            after: scheduler.now.advanced(by: .seconds(2)), interval: .seconds(1), tolerance: .milliseconds(1),
            options: options) { log.record(3, isolated: true) }
        await log.wait(for: 1)
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(1))
        await log.wait(for: 2)
        clock.advance(by: .seconds(1))
        await log.wait(for: 3)
        repeating.cancel()
        #expect(log.values == [1, 2, 3])
    }
}

/// An actor whose jobs run on a Dispatch queue of its own, not on the global executor's
/// threads: an action that blocks on it holds up no other test.
actor QueueBackedActor {
    private let executor = QueueExecutor()  // BridgeTestSupport.swift
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}
