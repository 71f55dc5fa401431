import Dispatch
@testable import Sluice
import Synchronization
import Testing

/// The lock-free demand counter that grants the emitter role (`Internal/PendingDemand.swift`).
@Suite struct PendingDemandTests {
    @Test func theFirstRequestBecomesTheEmitterAndLaterOnesOnlyAddDemand() {
        let pending = PendingDemand()
        #expect(pending.add(.max(2)) == .max(2))
        #expect(pending.add(.max(3)) == nil)
        // The emitter used its 2 and finds the 3 added meanwhile.
        #expect(pending.release(taken: .max(2)) == .max(3))
        #expect(pending.release(taken: .max(3)) == nil)
        // Idle again: the next request takes the role.
        #expect(pending.add(.max(1)) == .max(1))
    }

    @Test func unlimitedIsStickyAndTheEmitterNeverRunsOut() {
        let pending = PendingDemand()
        #expect(pending.add(.max(1)) == .max(1))
        #expect(pending.add(.unlimited) == nil)
        #expect(pending.release(taken: .max(1)) == .unlimited)
        #expect(pending.release(taken: .max(1)) == .unlimited)
    }

    @Test func finiteDemandsSaturateToUnlimited() {
        let pending = PendingDemand()
        #expect(pending.add(.max(Int.max)) == .max(Int.max))
        #expect(pending.add(.max(Int.max)) == nil)
        #expect(pending.release(taken: .max(Int.max)) == .unlimited)
    }

    @Test func manyThreadsAddingDemandHaveOneEmitterAtATimeAndLoseNone() {
        let pending = PendingDemand()
        let emitting = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let emitted = Atomic<Int>(0)
        let requests = 100_000
        DispatchQueue.concurrentPerform(iterations: requests) { _ in
            guard var demand = pending.add(.max(1)) else { return }
            while true {
                if emitting.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
                    overlaps.add(1, ordering: .relaxed)
                }
                emitted.add(demand.max!, ordering: .relaxed)
                emitting.subtract(1, ordering: .acquiringAndReleasing)
                guard let more = pending.release(taken: demand) else { return }
                demand = more
            }
        }
        #expect(overlaps.load(ordering: .acquiring) == 0)
        #expect(emitted.load(ordering: .acquiring) == requests)
    }
}
