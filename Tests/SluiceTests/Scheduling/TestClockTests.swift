import Testing
import Sluice
@testable import SluiceTesting

@Suite("TestClock: time moves only when the test advances it", .timeLimit(.minutes(12)))
struct TestClockTests {
    @Test("now starts at zero, moves by each advance, and never goes back")
    func nowMovesOnlyForward() {
        let clock = TestClock()
        #expect(clock.now == .init(offset: .zero))
        clock.advance(by: .seconds(2))
        #expect(clock.now == .init(offset: .seconds(2)))
        clock.advance(to: .init(offset: .seconds(1)))
        #expect(clock.now == .init(offset: .seconds(2)))
        #expect(clock.now.duration(to: .init(offset: .seconds(5))) == .seconds(3))
    }

    @Test("a sleeper wakes at the advance that reaches its deadline, not before")
    func sleeperWakesAtItsDeadline() async throws {
        let clock = TestClock()
        let woke = Locked(false)
        let sleeper = Task {
            try await clock.sleep(until: .init(offset: .seconds(1)))
            woke.withLock { $0 = true }
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)
        #expect(!woke.withLock { $0 })
        clock.advance(by: .milliseconds(1))
        #expect(clock.sleeperCount == 0)
        try await sleeper.value
        #expect(woke.withLock { $0 })
    }

    @Test("a sleep until an instant already reached returns at once")
    func pastDeadlineReturnsAtOnce() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(1))
        try await clock.sleep(until: .init(offset: .seconds(1)))
        try await clock.sleep(for: .zero)
        #expect(clock.now == .init(offset: .seconds(1)), "the sleeps returned without the clock moving")
    }

    @MainActor @Test("an advance resumes the sleepers it reaches, and no other")
    func wakesTheSleepersItReaches() async {
        let clock = TestClock()
        let log = IsolationLog<String>()
        let sleepers = [("c", 3), ("a", 1), ("b1", 2), ("b2", 2), ("late", 9)].map { name, seconds in
            Task { @MainActor in
                try? await clock.sleep(until: .init(offset: .seconds(seconds)))
                log.record(name, isolated: true)
            }
        }
        await clock.waitForSleepers(5)
        clock.advance(by: .seconds(5))
        await log.wait(for: 4)
        // The order they record in is not the order of the resumes (a resumed sleeper goes on
        // through the global executor before its hop back to the main actor): the next test
        // checks that order where it is made.
        #expect(Set(log.values) == ["a", "b1", "b2", "c"], "the sleepers the advance reached, and no other")
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(5))
        for sleeper in sleepers { await sleeper.value }
        #expect(log.values.last == "late")
    }

    @Test("an advance hands back the sleepers it reaches in deadline order, then sleep order")
    func wakesInDeadlineOrder() {
        var state = TestClockState<String>()
        for (name, seconds) in [("c", 3), ("a", 1), ("b1", 2), ("late", 9), ("b2", 2)] {
            let id = state.takeID()
            #expect(state.sleep(id: id, until: .init(offset: .seconds(seconds)), name).registered)
        }
        #expect(state.advance(to: .init(offset: .seconds(5))) == ["a", "b1", "b2", "c"])
        #expect(state.advance(to: .init(offset: .seconds(1))).isEmpty, "the clock never goes back")
        #expect(state.now == .init(offset: .seconds(5)))
        #expect(state.advance(to: .init(offset: .seconds(9))) == ["late"])
        #expect(!state.sleep(id: state.takeID(), until: .init(offset: .seconds(9)), "past").registered,
                "a deadline already reached does not sleep")
    }

    @Test("cancelling a sleeping task ends its sleep with CancellationError")
    func cancelWhileSleeping() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(until: .init(offset: .seconds(1))) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        #expect(clock.sleeperCount == 0)
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test("a task cancelled before it sleeps throws CancellationError at once")
    func cancelBeforeSleeping() async {
        let clock = TestClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .init(offset: .seconds(1)))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("waitForSleepers returns once that many tasks sleep on the clock")
    func waitForSleepers() async {
        let clock = TestClock()
        let sleepers = (1...3).map { _ in Task { try await clock.sleep(until: .init(offset: .seconds(1))) } }
        await clock.waitForSleepers(3)
        #expect(clock.sleeperCount == 3)
        await clock.waitForSleepers(2)   // already true: returns at once
        clock.advance(by: .seconds(1))
        for sleeper in sleepers { _ = try? await sleeper.value }
    }

    @Test("a wait for sleepers ends when the waiting task is cancelled")
    func waitForSleepersCancelled() async {
        let clock = TestClock()
        let waiter = Task {
            await clock.waitForSleepers(1)
            return Task.isCancelled
        }
        waiter.cancel()
        #expect(await waiter.value, "the wait ended, and only because its task was cancelled")
    }
}
