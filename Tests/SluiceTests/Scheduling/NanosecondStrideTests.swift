import Dispatch
import Testing
import Sluice

@Suite("NanosecondStride: the stride of the nanosecond schedulers but DispatchQueue")
struct NanosecondStrideTests {
    @Test("literals are seconds, as in Combine")
    func literalsAreSeconds() {
        let one: NanosecondStride = 1
        let short: NanosecondStride = 0.3
        #expect(one == .nanoseconds(1_000_000_000))
        #expect(short == .milliseconds(300))
        #expect(NanosecondStride(0.5) == .milliseconds(500))
    }

    @Test("units convert to nanoseconds")
    func units() {
        #expect(NanosecondStride.seconds(2).magnitude == 2_000_000_000)
        #expect(NanosecondStride.seconds(1.5).magnitude == 1_500_000_000)
        #expect(NanosecondStride.milliseconds(3).magnitude == 3_000_000)
        #expect(NanosecondStride.microseconds(4).magnitude == 4_000)
        #expect(NanosecondStride.nanoseconds(-5).magnitude == -5)
        #expect(NanosecondStride(exactly: 7 as UInt8) == .nanoseconds(7))
        #expect(NanosecondStride(exactly: UInt64.max) == nil)
    }

    @Test("arithmetic and comparison")
    func arithmetic() {
        var stride = NanosecondStride.milliseconds(2) + .microseconds(3)
        #expect(stride == .nanoseconds(2_003_000))
        stride -= .milliseconds(3)
        #expect(stride == .nanoseconds(-997_000))
        #expect(stride < .zero)
        #expect(NanosecondStride.nanoseconds(3) * .nanoseconds(4) == .nanoseconds(12))
        #expect(-NanosecondStride.seconds(1) == .seconds(-1))
    }

    @Test("arithmetic saturates instead of overflowing")
    func saturation() {
        #expect(NanosecondStride.seconds(Int.max) == .nanoseconds(.max))
        #expect(NanosecondStride.seconds(Int.min) == .nanoseconds(.min))
        #expect(NanosecondStride.seconds(1e300) == .nanoseconds(.max))
        #expect(NanosecondStride.seconds(Double(Int.max) / 1e9 - 1).magnitude == 9_223_372_035_854_776_320)
        #expect(NanosecondStride.seconds(Double(Int.max) / 1e9) == .nanoseconds(.max))
        #expect(NanosecondStride.seconds(-Double(Int.max) / 1e9) == .nanoseconds(.min))
        #expect(NanosecondStride.seconds(Double.nan) == .zero)
        #expect(NanosecondStride.nanoseconds(.max) + .nanoseconds(1) == .nanoseconds(.max))
        #expect(NanosecondStride.nanoseconds(.min) - .nanoseconds(1) == .nanoseconds(.min))
        #expect(NanosecondStride.nanoseconds(.max) * .nanoseconds(-2) == .nanoseconds(.min))
        #expect(NanosecondStride.zero - .nanoseconds(.min) == .nanoseconds(.max))
        #expect(-NanosecondStride.nanoseconds(.min) == .nanoseconds(.max))
    }

    @Test("conversions to and from Duration and DispatchTimeInterval")
    func conversions() {
        #expect(NanosecondStride.milliseconds(1_500).duration == .milliseconds(1_500))
        #expect(NanosecondStride(duration: Duration.milliseconds(-1_500)) == .milliseconds(-1_500))
        #expect(NanosecondStride(duration: Duration.nanoseconds(7) + .seconds(3)) == .nanoseconds(3_000_000_007))
        // Below a nanosecond rounds towards zero; beyond Int nanoseconds saturates.
        #expect(NanosecondStride(duration: Duration(secondsComponent: 0, attosecondsComponent: 999_999_999)) == .zero)
        #expect(NanosecondStride(duration: Duration.seconds(Int64.max)) == .nanoseconds(.max))
        #expect(NanosecondStride(duration: Duration.seconds(Int64.min)) == .nanoseconds(.min))
        #expect(NanosecondStride(DispatchTimeInterval.milliseconds(2)) == .milliseconds(2))
        #expect(NanosecondStride(DispatchTimeInterval.never) == .nanoseconds(.max))
        #expect(NanosecondStride.microseconds(5).timeInterval == .nanoseconds(5_000))
    }
}
