import Foundation
import Sluice
import Testing

private typealias Demand = Subscribers.Demand

@Suite(.timeLimit(.minutes(12))) struct DemandTests {
    @Test func additionSaturatesAtUnlimited() {
        #expect(Demand.max(1) + .max(2) == .max(3))
        #expect(Demand.max(.max) + 1 == .unlimited)
        #expect(Demand.max(1) + .unlimited == .unlimited)
        #expect(Demand.unlimited + .max(1) == .unlimited)
        #expect(Demand.max(.max) + .max(.max) == .unlimited)
        #expect(Demand.none + .none == .none)
    }

    @Test func compoundAdditionAndIntAddition() {
        var demand = Demand.max(1)
        demand += .max(2)
        #expect(demand == .max(3))
        demand += 4
        #expect(demand == .max(7))
        demand += .unlimited
        #expect(demand == .unlimited)
        demand += 1
        #expect(demand == .unlimited)
        #expect(Demand.max(3) + (-1) == .max(2))
        #expect(Demand.unlimited + 5 == .unlimited)
    }

    @Test func subtractionNeverGoesBelowNoneAndKeepsUnlimited() {
        #expect(Demand.max(3) - .max(1) == .max(2))
        #expect(Demand.max(1) - .max(3) == .none)
        #expect(Demand.unlimited - .max(5) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(5) - .unlimited == .none)
        #expect(Demand.max(3) - 1 == .max(2))
        #expect(Demand.max(1) - 3 == .none)
        #expect(Demand.unlimited - 1 == .unlimited)
        #expect(Demand.max(1) - (-2) == .max(3))
        // Combine's: a subtraction that passes Int.max gives .none, not .unlimited.
        #expect(Demand.max(.max) - Int.min == .none)
        #expect(Demand.max(.max) - (-1) == .none)
        var pastMax = Demand.max(.max)
        pastMax -= -1
        #expect(pastMax == .none)
        var demand = Demand.max(5)
        demand -= .max(2)
        demand -= 1
        #expect(demand == .max(2))
    }

    @Test func multiplicationSaturatesAtUnlimited() {
        #expect(Demand.max(2) * 3 == .max(6))
        #expect(Demand.max(2) * 0 == .none)
        #expect(Demand.unlimited * 2 == .unlimited)
        #expect(Demand.max(.max) * 2 == .unlimited)
        var demand = Demand.max(4)
        demand *= 2
        #expect(demand == .max(8))
    }

    @Test func comparisonsOrderUnlimitedAboveEveryFiniteDemand() {
        #expect(Demand.none < .max(1))
        #expect(Demand.max(.max) < .unlimited)
        #expect(Demand.unlimited > .max(.max))
        #expect(Demand.max(2) >= .max(2))
        #expect(Demand.max(2) <= .max(2))
        #expect(Demand.unlimited > 1_000_000)
        #expect(Demand.unlimited >= Int.max)
        #expect(Demand.max(1) > 0)
        #expect(Demand.none > -1)
        #expect(Demand.max(1) < 2)
        #expect(Demand.max(2) <= 2)
        #expect(!(Demand.unlimited < Int.max))
        #expect(0 < Demand.max(1))
        #expect(1 <= Demand.max(1))
        #expect(2 > Demand.max(1))
        #expect(1 >= Demand.max(1))
    }

    @Test func equalityWithIntegers() {
        #expect(Demand.max(0) == 0)
        #expect(Demand.none == .max(0))
        #expect(Demand.max(3) == 3)
        #expect(3 == Demand.max(3))
        #expect(Demand.max(3) != 4)
        #expect(4 != Demand.max(3))
        #expect(Demand.unlimited != Int.max)
        #expect(Demand.none != -1)
    }

    @Test func maxPropertyIsNilOnlyForUnlimited() {
        #expect(Demand.max(3).max == 3)
        #expect(Demand.none.max == 0)
        #expect(Demand.unlimited.max == nil)
    }

    @Test func descriptionMatchesCombine() {
        #expect(Demand.max(2).description == "max(2)")
        #expect(Demand.none.description == "max(0)")
        #expect(Demand.unlimited.description == "unlimited")
    }

    @Test func hashingAgreesWithEquality() {
        let set: Set<Demand> = [.max(1), .max(1) + .none, .unlimited, .max(.max) + 1]
        #expect(set == [.max(1), .unlimited])
    }

    @Test func codableRoundTripsFiniteAndUnlimited() throws {
        for demand in [Demand.none, .max(1), .max(.max), .unlimited] {
            let data = try JSONEncoder().encode(demand)
            #expect(try JSONDecoder().decode(Demand.self, from: data) == demand)
        }
        #expect(String(decoding: try JSONEncoder().encode(Demand.max(3)), as: UTF8.self) == "3")
    }

    @Test(.exitTest) func negativeMaxTrapsNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(-1)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("demand must not be negative (rule 2)"))
        }
    }

    @Test(.exitTest) func addingANegativeCountBelowZeroTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Subscribers.Demand.max(1) + (-5)
        }
    }
}
