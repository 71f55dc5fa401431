import Sluice
import Testing

@Suite struct DemandTests {
    @Test func additionSaturatesAtUnlimited() {
        #expect(Subscribers.Demand.max(1) + .max(2) == .max(3))
        #expect(Subscribers.Demand.max(.max) + 1 == .unlimited)
        #expect(Subscribers.Demand.max(1) + .unlimited == .unlimited)
    }
}
