@testable import Sluice
import Testing

// The examples in the doc comments of Internal/PendingDemand.swift, compiled and run.

@Suite struct PendingDemandExamples {
    @Test func emitterContinuesWithDemandAddedMeanwhile() {
        let pending = PendingDemand()
        var emitted: [Subscribers.Demand] = []
        func emit(_ demand: Subscribers.Demand) {
            emitted.append(demand)
            // As a subscriber's receive(_:) would: more demand while this caller emits.
            if emitted.count == 1 { #expect(pending.add(.max(1)) == nil) }
        }
        // snippet PendingDemandEmitterLoop begin
        var next = pending.add(.max(2))   // .max(2): this caller became the emitter
        #expect(next == .max(2))
        while let demand = next {
            emit(demand)                  // an add(_:) meanwhile only grows the count
            next = pending.release(taken: demand)
        }
        // snippet PendingDemandEmitterLoop end
        #expect(emitted == [.max(2), .max(1)])
        #expect(pending.add(.max(1)) == .max(1))   // the role was given up: the next add takes it
    }
}
