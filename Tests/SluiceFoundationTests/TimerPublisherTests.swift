import Foundation
import Sluice
import SluiceFoundation
import SluiceTesting
import Testing

@Suite(.timeLimit(.minutes(12)))
struct TimerPublisherTests {
    /// The interval of the timers under test: short, since every test waits for real firings.
    static let interval: TimeInterval = 0.005

    @Test("the subscription and the connection have no description or mirror of their own, as Combine's")
    func noDescriptions() throws {
        let timer = Timer.publish(every: 60, on: .main, in: .default)
        let recorder = RecordingSubscriber<Date, Never>(initialDemand: .none)
        timer.subscribe(recorder)
        let connection = timer.connect()
        defer { connection.cancel() }
        let subscription = try #require(recorder.subscription)
        for value in [subscription as Any, connection as Any] {
            #expect(!(value is any CustomStringConvertible))
            #expect(!(value is any CustomReflectable))
            #expect(!(value is any CustomPlaygroundDisplayConvertible))
            #expect(!(value is any CustomDebugStringConvertible))
        }
        recorder.cancel()
    }

    @Test func aSubscriberAskingForThreeGetsThreeThenOnlyFiringsAfterItAsksForMore() async {
        let (thread, runLoop) = await RunLoopThread.start()
        defer { thread.stop() }
        let timer = Timer.publish(every: Self.interval, on: runLoop, in: .default)
        let limited = RecordingSubscriber<Date, Never>(initialDemand: .max(3))
        defer { limited.cancel() }
        let clock = RecordingSubscriber<Date, Never>()
        defer { clock.cancel() }
        timer.subscribe(limited)
        timer.subscribe(clock)
        let connection = timer.connect()
        defer { connection.cancel() }

        await limited.waitForValues(count: 3)
        // The delay: three more firings, which the limited subscriber has no demand for.
        let seen = clock.valueCount
        await clock.waitForValues(count: seen + 3)
        #expect(limited.valueCount == 3)

        let lastDropped = clock.values[seen + 2]
        limited.request(.max(2))
        await limited.waitForValues(count: 5)
        let more = clock.valueCount
        await clock.waitForValues(count: more + 3)
        #expect(limited.valueCount == 5)
        // The two new dates are firings after the request, not firings kept from before: the
        // clock saw the firings in between, which the limited subscriber had no demand for.
        #expect(limited.values[3] > lastDropped)
        #expect(Array(limited.values[0..<3]) == Array(clock.values[0..<3]))
        #expect(limited.values == limited.values.sorted())
        #expect(limited.violations.isEmpty)
        #expect(clock.violations.isEmpty)
    }

    @Test func eachSubscriberGetsFiringsWithinItsOwnDemand() async {
        let (thread, runLoop) = await RunLoopThread.start()
        defer { thread.stop() }
        let timer = Timer.publish(every: Self.interval, tolerance: 0, on: runLoop, in: .default)
        let one = RecordingSubscriber<Date, Never>(initialDemand: .max(1))
        defer { one.cancel() }
        let two = RecordingSubscriber<Date, Never>(initialDemand: .max(2))
        defer { two.cancel() }
        let clock = RecordingSubscriber<Date, Never>()
        defer { clock.cancel() }
        for subscriber in [one, two, clock] { timer.subscribe(subscriber) }
        let connection = timer.connect()
        defer { connection.cancel() }

        await clock.waitForValues(count: 5)
        #expect(one.valueCount == 1)
        #expect(two.valueCount == 2)
        #expect(one.values[0] == clock.values[0])
        #expect(two.values == Array(clock.values[0..<2]))
        #expect(one.completion == nil)
        #expect([one, two, clock].allSatisfy { $0.violations.isEmpty })
    }

    @Test func nothingFiresBeforeConnectAndNothingAfterTheConnectionIsCancelled() async {
        let (thread, runLoop) = await RunLoopThread.start()
        defer { thread.stop() }
        let timer = Timer.publish(every: Self.interval, on: runLoop, in: .default)
        let early = RecordingSubscriber<Date, Never>()
        defer { early.cancel() }
        timer.subscribe(early)
        await passFirings(5, on: runLoop)
        #expect(early.valueCount == 0)

        let connection = timer.connect()
        await early.waitForValues(count: 2)
        connection.cancel()
        connection.cancel()  // idempotent
        let late = RecordingSubscriber<Date, Never>()
        defer { late.cancel() }
        timer.subscribe(late)
        // A firing the run loop had begun when the cancel came finishes (rule 4: a signal
        // already being delivered completes); one pass lets it end before counting.
        await passFirings(1, on: runLoop)
        let count = early.valueCount
        await passFirings(5, on: runLoop)
        // The timer is invalidated (the late subscriber gets nothing) and the early one is
        // disconnected, without a completion: a timer publisher never completes.
        #expect(late.valueCount == 0)
        #expect(early.valueCount == count)
        #expect(early.completion == nil)
    }

    @Test func autoconnectStartsTheTimerForTheFirstSubscriberAndStopsItAfterTheLast() async {
        let (thread, runLoop) = await RunLoopThread.start()
        defer { thread.stop() }
        let timer = Timer.publish(every: Self.interval, on: runLoop, in: .default)
        let ticks = timer.autoconnect()
        let probe = RecordingSubscriber<Date, Never>()
        defer { probe.cancel() }
        timer.subscribe(probe)  // directly: sees firings only while someone connected

        let first = RecordingSubscriber<Date, Never>()

        defer { first.cancel() }
        ticks.subscribe(first)
        await first.waitForValues(count: 2)
        first.cancel()

        let late = RecordingSubscriber<Date, Never>()

        defer { late.cancel() }
        timer.subscribe(late)
        await passFirings(5, on: runLoop)
        #expect(late.valueCount == 0)

        let again = RecordingSubscriber<Date, Never>()

        defer { again.cancel() }
        ticks.subscribe(again)
        await again.waitForValues(count: 2)
        again.cancel()
        #expect(again.violations.isEmpty && first.violations.isEmpty)
    }

    @Test func cancelStopsDeliveryAndReleasesTheSubscriber() async {
        let (thread, runLoop) = await RunLoopThread.start()
        defer { thread.stop() }
        let timer = Timer.publish(every: Self.interval, on: runLoop, in: .default)
        let clock = RecordingSubscriber<Date, Never>()
        defer { clock.cancel() }
        timer.subscribe(clock)
        let connection = timer.connect()
        defer { connection.cancel() }
        weak var released: RecordingSubscriber<Date, Never>?
        do {
            let subscriber = RecordingSubscriber<Date, Never>()
            defer { subscriber.cancel() }
            released = subscriber
            timer.subscribe(subscriber)
            await subscriber.waitForValues(count: 1)
            subscriber.cancel()
        }
        let count = clock.valueCount
        await clock.waitForValues(count: count + 2)
        #expect(released == nil)
    }

    @Test("Timer.publish keeps its arguments but the tolerance, which Combine's drops; the initialiser keeps it")
    func theFactoryKeepsItsArguments() async {
        let timer = Timer.publish(every: 2, tolerance: 0.5, on: .main, in: .common, options: nil)
        #expect(timer.interval == 2)
        #expect(timer.tolerance == nil)
        #expect(timer.runLoop === RunLoop.main)
        #expect(timer.mode == .common)
        #expect(Timer.TimerPublisher(interval: 2, tolerance: 0.5, runLoop: .main, mode: .common).tolerance == 0.5)
    }
}

/// Waits until `count` intervals of ``TimerPublisherTests/interval`` have passed on `runLoop`:
/// a timer of its own, on the same run loop, has fired that many times.
func passFirings(_ count: Int, on runLoop: RunLoop) async {
    let marker = RecordingSubscriber<Date, Never>(initialDemand: .max(count))
    defer { marker.cancel() }
    let timer = Timer.publish(every: TimerPublisherTests.interval, on: runLoop, in: .default)
    timer.subscribe(marker)
    let connection = timer.connect()
    await marker.waitForValues(count: count)
    connection.cancel()
}
