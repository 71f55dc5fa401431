import Foundation
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

    @Test("its clock never moves; its time type is Combine's: advancing gives the same instant, a stride has no unit")
    func clockStandsStill() throws {
        typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
        let scheduler = ImmediateScheduler.shared
        let before = scheduler.now
        scheduler.schedule {}
        #expect(scheduler.now == before, "the clock moved across a scheduled action")
        #expect(scheduler.minimumTolerance == .zero)
        #expect(before.advanced(by: 100) == before)
        #expect(before.distance(to: before.advanced(by: -1)) == 0)
        #expect(Stride(14) == 14.6 && Stride(-4) == -4.1, "a float literal is truncated")
        #expect(Stride(-4) * Stride(5) == -20 && Stride(10) - Stride(3) == 7)
        #expect([Stride.seconds(2), .seconds(1.5), .milliseconds(3), .microseconds(4), .nanoseconds(5)].allSatisfy { $0 == 0 })
        #expect(Stride(exactly: UInt64.max) == nil && Stride(exactly: 7 as UInt8) == 7)
        var stride = Stride(1)
        stride += 10
        stride *= 2
        stride -= 4
        #expect(stride == 18)
        let encoded = try JSONEncoder().encode(Stride(-42))
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"magnitude":-42}"#)
        #expect(try JSONDecoder().decode(Stride.self, from: encoded) == -42)
    }
}
