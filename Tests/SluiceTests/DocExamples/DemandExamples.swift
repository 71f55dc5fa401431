import Sluice
import Testing

// The examples in the doc comments of Core/Demand.swift, compiled and run; `.ci/check-snippets.sh`
// checks that the comments show exactly the lines between each snippet's markers.

@Suite struct DemandExamples {
    @Test func arithmeticSaturates() {
        // snippet DemandArithmetic begin
        var demand = Subscribers.Demand.max(2)
        demand += 3                                          // .max(5)
        #expect(demand == .max(5))
        demand -= 10                                         // .none, never negative
        #expect(demand == .none)
        let saturated = Subscribers.Demand.max(.max) + 1     // .unlimited
        #expect(saturated == .unlimited)
        // snippet DemandArithmetic end
    }
}
