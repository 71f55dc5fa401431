import Testing
import Sluice
import SluiceTesting

/// The document scenario: a subscriber that requests `.max(3)` from a timer-like
/// publisher and asks for more on a delay, on virtual time, so that every value and its time
/// are exact.
@Suite("Scenario: limited demand from a timer, more asked for later", .timeLimit(.minutes(12)))
struct TimerDemandScenarioTests {
    /// The timer: a subject that a repeating scheduled action sends the tick count to, every
    /// second from 1 s on, whether or not anyone has demand (as a Timer publisher does).
    static func ticks(on scheduler: VirtualTimeScheduler) -> (PassthroughSubject<Int, Never>, any Cancellable) {
        let ticks = PassthroughSubject<Int, Never>()
        let count = Locked(0)
        let timer = scheduler.schedule(after: .init(nanoseconds: 1_000_000_000), interval: .seconds(1)) {
            ticks.send(count.withLock { count in
                count += 1
                return count
            })
        }
        return (ticks, timer)
    }

    /// The subscriber: `.max(3)` at first, then three more 2.5 s after the third value of each
    /// batch (after the first batch only, unless `everyBatch`). Returns it and when each value
    /// arrived.
    static func subscriber(on scheduler: VirtualTimeScheduler, everyBatch: Bool) -> (RecordingSubscriber<Int, Never>, Locked<[Stamp]>) {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
        let received = Locked<[Stamp]>([])
        recorder.onValue { [unowned recorder] value in
            let total = received.withLock { received in
                received.append(Stamp(value, at: scheduler.ms))
                return received.count
            }
            if everyBatch ? total.isMultiple(of: 3) : total == 3 {
                scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(2_500))) { [weak recorder] in recorder?.request(.max(3)) }
            }
            return .none
        }
        return (recorder, received)
    }

    @Test("ticks sent while the subscriber has no demand are dropped; each batch of three arrives on time after the delayed request")
    func delayedRequests() {
        let scheduler = VirtualTimeScheduler()
        let (ticks, timer) = Self.ticks(on: scheduler)
        let (recorder, received) = Self.subscriber(on: scheduler, everyBatch: true)
        defer {
            timer.cancel()
            recorder.cancel()
        }
        // Each tick reaches the subscriber 100 ms after it was sent; the demand goes to the timer.
        ticks.delay(for: .milliseconds(100), scheduler: scheduler).subscribe(recorder)

        scheduler.advance(toMs: 14_000)
        #expect(received.withLock { $0 } == [
            Stamp(1, at: 1_100), Stamp(2, at: 2_100), Stamp(3, at: 3_100),
            // Requested at 5,600: ticks 4 and 5 found no demand.
            Stamp(6, at: 6_100), Stamp(7, at: 7_100), Stamp(8, at: 8_100),
            // Requested at 10,600: ticks 9 and 10 found no demand.
            Stamp(11, at: 11_100), Stamp(12, at: 12_100), Stamp(13, at: 13_100),
        ])
        #expect(recorder.outstandingDemand == .none && recorder.violations.isEmpty)
    }

    @Test("the same timer throttled: one value per two seconds within the demand, the request arriving mid-window")
    func throttledDelayedRequests() {
        let scheduler = VirtualTimeScheduler()
        let (ticks, timer) = Self.ticks(on: scheduler)
        let (recorder, received) = Self.subscriber(on: scheduler, everyBatch: false)
        defer {
            timer.cancel()
            recorder.cancel()
        }
        ticks.throttle(for: .seconds(2), scheduler: scheduler, latest: true).subscribe(recorder)

        scheduler.advance(toMs: 16_000)
        // 1 goes out at once; 3 (latest of 2, 3) at 3 s, 5 at 5 s; the demand is spent, so 6 and 7
        // are dropped; the request comes at 7,500, tick 8 goes out at once (the last emission is
        // 3 s old), then 10 at 10 s and 12 at 12 s, and the demand is spent again.
        #expect(received.withLock { $0 } == [
            Stamp(1, at: 1_000), Stamp(3, at: 3_000), Stamp(5, at: 5_000),
            Stamp(8, at: 8_000), Stamp(10, at: 10_000), Stamp(12, at: 12_000),
        ])
        #expect(recorder.violations.isEmpty)
    }
}
