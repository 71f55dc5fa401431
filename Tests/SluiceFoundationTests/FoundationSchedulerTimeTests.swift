import Foundation
import Sluice
import SluiceFoundation
import Testing

/// Code written for Combine may extend both Foundation time types (and their strides) with the
/// same protocol; that compiles only if they are distinct types, as in Combine.
private protocol ExtendedByBothTimeTypes {}
extension RunLoop.SchedulerTimeType: ExtendedByBothTimeTypes {}
extension OperationQueue.SchedulerTimeType: ExtendedByBothTimeTypes {}
extension RunLoop.SchedulerTimeType.Stride: ExtendedByBothTimeTypes {}
extension OperationQueue.SchedulerTimeType.Stride: ExtendedByBothTimeTypes {}

@Suite
struct FoundationSchedulerTimeTests {
    typealias Stride = RunLoop.SchedulerTimeType.Stride

    @Test func literalsAreSeconds() {
        let integer: Stride = 2
        let fraction: Stride = 0.25
        #expect(integer.timeInterval == 2)
        #expect(fraction.magnitude == 0.25)
        #expect(Stride(exactly: 3)?.timeInterval == 3)
        #expect(Stride(exactly: UInt64(1) << 60) != nil)
        #expect(Stride(exactly: UInt64.max) == nil)  // not a Double exactly
    }

    @Test func unitsConvertToSeconds() {
        #expect(Stride.seconds(3) == 3)
        #expect(Stride.seconds(1.5) == 1.5)
        #expect(Stride.milliseconds(1500) == 1.5)
        #expect(Stride.microseconds(250) == 0.000_25)
        #expect(Stride.nanoseconds(5_000_000_000) == 5)
    }

    @Test func arithmeticAndOrderAreTheSecondsOnes() {
        var stride: Stride = 1
        stride += 0.5
        #expect(stride == 1.5)
        stride -= 2
        #expect(stride == -0.5)
        #expect(stride.magnitude == -0.5)  // signed, as in Combine
        stride *= 4
        #expect(stride == -2)
        #expect(Stride(3) + 1 == 4 && Stride(3) - 1 == 2 && Stride(3) * 2 == 6)
        #expect(-Stride(2) == -2)
        #expect(Stride.milliseconds(1) < .seconds(1))
        #expect([Stride(3), 1, 2].sorted() == [1, 2, 3])
    }

    @Test func instantsMoveByStridesAndMeasureTheirDistance() {
        let start = RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 100))
        let later = start.advanced(by: .milliseconds(250))
        #expect(later.date == Date(timeIntervalSinceReferenceDate: 100.25))
        #expect(start.distance(to: later) == 0.25)
        #expect(later.distance(to: start) == -0.25)
        #expect(start < later)
        #expect(start.advanced(by: -1).date == Date(timeIntervalSinceReferenceDate: 99))
        #expect(Set([start, later, start.advanced(by: 0)]).count == 2)
    }

    @Test func instantsAndStridesRoundTripThroughCodable() throws {
        let instant = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 42))
        let decoded = try JSONDecoder().decode(
            OperationQueue.SchedulerTimeType.self, from: try JSONEncoder().encode(instant))
        #expect(decoded == instant)
        let stride: Stride = -1.25
        #expect(try JSONDecoder().decode(Stride.self, from: try JSONEncoder().encode(stride)) == stride)
    }

    @Test func runLoopAndOperationQueueHaveTwoTimeTypesWithOneArithmetic() {
        #expect(RunLoop.SchedulerTimeType.self != OperationQueue.SchedulerTimeType.self)
        #expect(RunLoop.SchedulerTimeType.Stride.self != OperationQueue.SchedulerTimeType.Stride.self)
        let start = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 10))
        let later = start.advanced(by: .milliseconds(1500))
        #expect(start.distance(to: later) == 1.5)
        #expect(OperationQueue.SchedulerTimeType.Stride.microseconds(250) == 0.000_25)
        #expect(later.date == RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 10)).advanced(by: 1.5).date)
    }
}
