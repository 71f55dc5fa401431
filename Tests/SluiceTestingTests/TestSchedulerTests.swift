import Dispatch
import Sluice
import SluiceTesting
import Testing

/// Virtual time: nothing runs until the clock moves; then each action at its due time, actions
/// due together in the order scheduled, repeating ones at each interval until cancelled.
@Suite struct TestSchedulerTests {
    /// A list the actions append to (they are `@Sendable`).
    struct Log: Sendable {
        private let entries = Locked<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func nothingRunsUntilTheClockMoves() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        scheduler.schedule { log.add("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.add("1s") }
        #expect(log.all == [])
        #expect(scheduler.scheduledCount == 2)
        scheduler.advance()
        #expect(log.all == ["now"])
        scheduler.advance(by: .milliseconds(999))
        #expect(log.all == ["now"])
        scheduler.advance(by: .milliseconds(1))
        #expect(log.all == ["now", "1s"])
        #expect(scheduler.now == .init(nanoseconds: 1_000_000_000))
    }

    @Test func actionsRunAtTheirDueTimeInTimeOrderThenScheduleOrder() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        for (name, ms) in [("a", 30), ("b", 10), ("c", 30), ("d", 10)] {
            scheduler.schedule(after: .init(nanoseconds: ms * 1_000_000)) { [scheduler] in
                log.add("\(name)@\(scheduler.now.nanoseconds / 1_000_000)")
            }
        }
        scheduler.advance(by: .seconds(1))
        #expect(log.all == ["b@10", "d@10", "a@30", "c@30"])
        #expect(scheduler.now == .init(nanoseconds: 1_000_000_000))
    }

    @Test func anActionMayScheduleMoreWithinTheSameAdvance() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        scheduler.schedule(after: .init(nanoseconds: 10)) { [scheduler] in
            log.add("first")
            scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(5))) { log.add("second") }
            scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(50))) { log.add("late") }
        }
        scheduler.advance(by: .nanoseconds(20))
        #expect(log.all == ["first", "second"])
        scheduler.run()
        #expect(log.all == ["first", "second", "late"])
        #expect(scheduler.now == .init(nanoseconds: 60))
    }

    @Test func aRepeatingActionRunsEachIntervalUntilCancelled() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        let cancellable = scheduler.schedule(after: .init(nanoseconds: 10), interval: .nanoseconds(10)) { [scheduler] in
            log.add("\(scheduler.now.nanoseconds)")
        }
        scheduler.advance(by: .nanoseconds(35))
        #expect(log.all == ["10", "20", "30"])
        cancellable.cancel()
        scheduler.advance(by: .nanoseconds(100))
        #expect(log.all == ["10", "20", "30"])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aRepeatingActionCancelledFromInsideItselfStops() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        let slot = CancellableSlot()
        slot.set(scheduler.schedule(after: .init(nanoseconds: 1), interval: .nanoseconds(1)) {
            log.add("tick")
            if log.all.count == 2 { slot.cancel() }
        })
        scheduler.advance(by: .nanoseconds(10))
        #expect(log.all == ["tick", "tick"])
    }

    @Test func releasingTheCancellableCancels() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        _ = scheduler.schedule(after: .init(nanoseconds: 1), interval: .nanoseconds(1)) { log.add("tick") }
        scheduler.advance(by: .nanoseconds(10))
        #expect(log.all == [])
    }

    @Test func theClockNeverGoesBack() {
        let scheduler = VirtualTimeScheduler()
        scheduler.advance(by: .seconds(2))
        scheduler.advance(to: .init(nanoseconds: 1))
        #expect(scheduler.now == .init(nanoseconds: 2_000_000_000))
        let log = Log()
        scheduler.schedule(after: .init(nanoseconds: 1)) { log.add("past") }
        scheduler.advance()
        #expect(log.all == ["past"])
    }

    @Test func standsInForADispatchQueue() {
        let scheduler = DispatchQueue.test
        let log = Log()
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(5)), tolerance: .zero, options: .init(qos: .userInitiated)) {
            log.add("ran")
        }
        scheduler.advance(by: .milliseconds(5))
        #expect(log.all == ["ran"])
    }

    @Test func immediateTestSchedulerRunsAtOnceAndMovesItsClock() {
        let scheduler = ImmediateTestScheduler()
        let log = Log()
        scheduler.schedule(after: .init(nanoseconds: 50)) { [scheduler] in
            log.add("a@\(scheduler.now.nanoseconds)")
            scheduler.schedule(after: .init(nanoseconds: 70)) { log.add("c@\(scheduler.now.nanoseconds)") }
            log.add("b")
        }
        #expect(log.all == ["a@50", "b", "c@70"])
        scheduler.schedule(after: .init(nanoseconds: 10)) { log.add("past@\(scheduler.now.nanoseconds)") }
        #expect(log.all.last == "past@70")
        _ = scheduler.schedule(after: .init(nanoseconds: 80), interval: .nanoseconds(1)) { log.add("once") }
        #expect(log.all.filter { $0 == "once" }.count == 1)
    }
}

/// Holds a cancellable that an action cancels from inside itself.
struct CancellableSlot: Sendable {
    private let slot = Locked<AnyCancellable?>(nil)
    func set(_ cancellable: any Cancellable) { slot.withLock { $0 = AnyCancellable(cancellable) } }
    func cancel() { slot.withLock { $0 }?.cancel() }

    @Test("virtual time counts nanoseconds and saturates at the ends of Int")
    func virtualTimeSaturates() {
        let far = VirtualTime(nanoseconds: .max - 1)
        #expect(far.advanced(by: .seconds(1)).nanoseconds == .max)
        #expect(VirtualTime(nanoseconds: .min + 1).advanced(by: .seconds(-1)).nanoseconds == .min)
        #expect(VirtualTime(nanoseconds: .min).distance(to: far) == .nanoseconds(.max))
        #expect(far.distance(to: VirtualTime(nanoseconds: .min)) == .nanoseconds(.min))
        #expect(VirtualTime(nanoseconds: 5).distance(to: VirtualTime(nanoseconds: 2)) == .nanoseconds(-3))
        #expect(VirtualTimeScheduler().now == VirtualTime(nanoseconds: 0))
    }
}
