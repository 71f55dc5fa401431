import Dispatch
import Foundation
import Testing
import Sluice

@Suite("DispatchQueue's stride: nanoseconds with Combine's own rules")
struct DispatchQueueStrideTests {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    @Test("an integer is seconds, from a literal or from exactly:")
    func integersAreSeconds() {
        let two: Stride = 2
        #expect(two.magnitude == 2_000_000_000)
        #expect(Stride(exactly: 2 as UInt64)?.magnitude == 2_000_000_000)
        #expect(Stride(exactly: -3 as Int8)?.magnitude == -3_000_000_000)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride(exactly: Int.max) == .nanoseconds(.max))
        #expect((0.3 as Stride) == .milliseconds(300))
        #expect(Stride(0.5) == .milliseconds(500))
    }

    @Test("seconds as a Double saturate only past Int.max nanoseconds")
    func doubleSecondsSaturateAtTheBound() {
        let nearlyLongest = Double(Int.max) / 1_000_000_000 - 1
        #expect(Stride.seconds(nearlyLongest).magnitude == 9_223_372_035_854_776_320)
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000) == .nanoseconds(.max))
        #expect(Stride.seconds(-Double(Int.max) / 1_000_000_000) == .nanoseconds(.min))
        #expect(Stride.seconds(.nan) == .zero)
        #expect(Stride.seconds(1.2).magnitude == 1_200_000_000)
    }

    @Test("* and *= give zero, as Combine's do")
    func multiplicationGivesZero() {
        #expect(Stride.nanoseconds(18) * .nanoseconds(1) == .zero)
        #expect(Stride.microseconds(-3) * .nanoseconds(10) == .zero)
        #expect(Stride.seconds(2) * 3 == .zero)
        var stride = Stride.nanoseconds(15)
        stride *= .nanoseconds(2)
        #expect(stride == .zero)
    }

    @Test("other arithmetic is exact and saturates")
    func additionAndSubtraction() {
        var stride = Stride.milliseconds(2) + .microseconds(3)
        #expect(stride == .nanoseconds(2_003_000))
        stride -= .milliseconds(3)
        #expect(stride == .nanoseconds(-997_000))
        #expect(stride < .zero)
        #expect(-Stride.seconds(1) == .seconds(-1))
        #expect(Stride.nanoseconds(.max) + .nanoseconds(1) == .nanoseconds(.max))
        #expect(Stride.nanoseconds(.min) - .nanoseconds(1) == .nanoseconds(.min))
    }

    @Test("it encodes as Combine's, under the key _nanoseconds, and decodes that form")
    func codableAsCombine() throws {
        let encoded = try JSONEncoder().encode(["value": Stride.nanoseconds(419_872)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"_nanoseconds":419872}}"#)
        let decoded = try JSONDecoder().decode(Stride.self, from: Data(#"{"_nanoseconds":-5}"#.utf8))
        #expect(decoded == .nanoseconds(-5))
    }

    @Test("conversions to and from DispatchTimeInterval and Duration")
    func conversions() {
        #expect(Stride(.milliseconds(2)) == .milliseconds(2))
        #expect(Stride(.never) == .nanoseconds(.max))
        #expect(Stride(.seconds(.min)) == .nanoseconds(.min))
        #expect(Stride.microseconds(5).timeInterval == .nanoseconds(5_000))
        #expect(Stride.milliseconds(1_500).duration == .milliseconds(1_500))
        #expect(Stride.nanoseconds(7).description == "7ns")
    }
}
