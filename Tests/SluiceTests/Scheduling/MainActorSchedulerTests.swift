import Testing
import Sluice

extension ClockScheduler<ContinuousClock> {
    /// A main-actor scheduler with a queue of its own, which no other test can keep busy: the
    /// tests that an action runs inline need the queue idle (the shared one is used by every
    /// test that runs at the same time).
    static func privateMainActor() -> Self {
        ClockScheduler(clock: ContinuousClock(), queue: ClockSchedulerQueue(actor: MainActor.shared))
    }
}

@Suite("ClockScheduler on an actor: .mainActor and .actor(_:)", .timeLimit(.minutes(12)))
struct MainActorSchedulerTests {
    @MainActor @Test("an action scheduled on the main actor while it is idle runs at once, inside schedule")
    func inlineWhenIdle() {
        let log = IsolationLog<Int>()
        ClockScheduler.privateMainActor().schedule { log.record(1, isolated: MainQueue.isCurrent) }
        #expect(log.values == [1])
        #expect(log.allIsolated)
    }

    @MainActor @Test("an action scheduled from inside a running one runs after it, not nested, in order")
    func nestedScheduleQueuesBehind() {
        let log = IsolationLog<String>()
        let scheduler = ClockScheduler.privateMainActor()
        scheduler.schedule {
            log.record("a start", isolated: MainQueue.isCurrent)
            scheduler.schedule {
                log.record("b start", isolated: MainQueue.isCurrent)
                scheduler.schedule { log.record("c", isolated: MainQueue.isCurrent) }
                log.record("b end", isolated: MainQueue.isCurrent)
            }
            log.record("a end", isolated: MainQueue.isCurrent)
        }
        // Still inside the one inline run: everything queued meanwhile ran before schedule returned.
        #expect(log.values == ["a start", "a end", "b start", "b end", "c"])
        #expect(log.allIsolated)
    }

    @MainActor @Test("a runner that has run a budget of actions in a row lets the main actor go, and the rest follow in order")
    func budgetYieldsTheMainActor() async {
        let log = IsolationLog<Int>()
        let scheduler = ClockScheduler.privateMainActor()
        let count = 2 * ClockSchedulerQueue.budget
        scheduler.schedule {
            log.record(0, isolated: MainQueue.isCurrent)
            for i in 1...count { scheduler.schedule { log.record(i, isolated: MainQueue.isCurrent) } }
        }
        // The inline run stopped at its budget and handed the rest to a drain task.
        #expect(log.values.count == ClockSchedulerQueue.budget)
        await log.wait(for: count + 1)
        #expect(log.values == Array(0...count))
        #expect(log.allIsolated)
    }

    @MainActor @Test("an action scheduled from a background task hops to the main actor")
    func hopFromBackground() async {
        let log = IsolationLog<Int>()
        await Task.detached { ClockScheduler.mainActor.schedule { log.record(1, isolated: MainQueue.isCurrent) } }.value
        await log.wait(for: 1)
        #expect(log.values == [1])
        #expect(log.allIsolated)
    }

    @MainActor @Test("10,000 actions scheduled from another thread run on the main actor in the order scheduled")
    func orderFromAnotherThread() async {
        let log = IsolationLog<Int>()
        let count = 10_000
        await Task.detached {
            for i in 0..<count { ClockScheduler.mainActor.schedule { log.record(i, isolated: MainQueue.isCurrent) } }
        }.value
        await log.wait(for: count)
        #expect(log.values == Array(0..<count))
        #expect(log.allIsolated)
    }

    @MainActor @Test("every main-actor scheduler shares one queue: order holds across them, whatever their clock")
    func mainActorSchedulersShareOneQueue() async {
        let log = IsolationLog<Int>()
        let count = 1_000
        await Task.detached {
            let other = ClockScheduler(clock: SuspendingClock(), actor: MainActor.shared)
            for i in 0..<count {
                if i.isMultiple(of: 2) {
                    ClockScheduler.mainActor.schedule { log.record(i, isolated: MainQueue.isCurrent) }
                } else {
                    other.schedule { log.record(i, isolated: MainQueue.isCurrent) }
                }
            }
        }.value
        // One more on the main actor: it queues behind the others if they have not run yet.
        ClockScheduler.mainActor.schedule { log.record(count, isolated: MainQueue.isCurrent) }
        await log.wait(for: count + 1)
        #expect(log.values == Array(0...count))
        #expect(log.allIsolated)
    }

    @Test(".mainActor, .actor(MainActor.shared) and any clock's main-actor scheduler share the one main-actor queue")
    func mainActorIdentity() {
        let main = ClockScheduler.mainActor
        #expect(main.actor === MainActor.shared)
        #expect(main.queue.isMainActor)
        #expect(ClockScheduler.actor(MainActor.shared).queue === main.queue)
        #expect(ClockScheduler(clock: SuspendingClock(), actor: MainActor.shared).queue === main.queue)
        #expect(ClockScheduler(clock: ContinuousClock()).actor == nil)
        let actor = QueueActor()
        #expect(ClockScheduler.actor(actor).actor === actor)
        #expect(ClockScheduler.actor(actor).queue !== ClockScheduler.actor(actor).queue)
    }

    @MainActor @Test(".mainActor and .actor(_:) are written with a leading dot where a generic scheduler is expected")
    func leadingDotSyntax() {
        func actorOf<S: Scheduler>(_ scheduler: S) -> (any Actor)? { (scheduler as? ClockScheduler<ContinuousClock>)?.actor }
        func isClockScheduler(_ scheduler: some Scheduler) -> Bool { scheduler is ClockScheduler<ContinuousClock> }
        let actor = QueueActor()
        #expect(actorOf(.mainActor) === MainActor.shared)
        #expect(actorOf(.actor(actor)) === actor)
        #expect(isClockScheduler(.mainActor))
    }

    @Test("a custom actor's actions run isolated to it, in order, and hop even when scheduled from it")
    func customActor() async {
        let actor = QueueActor()
        let scheduler = ClockScheduler.actor(actor)
        let log = IsolationLog<Int>()
        let ranInline = await actor.run { actor in
            scheduler.schedule { log.record(0, isolated: actor.isCurrent) }
            return !log.values.isEmpty
        }
        #expect(!ranInline)
        await Task.detached {
            for i in 1...1_000 { scheduler.schedule { log.record(i, isolated: actor.isCurrent) } }
        }.value
        await log.wait(for: 1_001)
        #expect(log.values == Array(0...1_000))
        #expect(log.allIsolated)
    }

    @Test("on the global executor, actions run one at a time, never overlapping, in the order scheduled")
    func globalExecutorIsSerial() async {
        let scheduler = ClockScheduler(clock: ContinuousClock())
        let log = IsolationLog<Int>()
        let running = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 0..<2_000 {
                    scheduler.schedule {
                        let alone = running.withLock { $0 += 1; return $0 == 1 }
                        log.record(i, isolated: alone)
                        running.withLock { $0 -= 1 }
                    }
                }
            }
        }
        await log.wait(for: 2_000)
        #expect(log.values == Array(0..<2_000))
        #expect(log.allIsolated)
    }
}
