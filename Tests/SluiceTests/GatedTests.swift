@testable import Sluice
import Testing

/// The downstream reference that subscriptions release on termination
/// (`Internal/Gated.swift`).
@Suite struct GatedTests {
    final class Tracked {}

    /// Sees whether the value a gate was made with is still alive.
    final class Watch {
        weak var tracked: Tracked?

        func gated() -> Gated<Tracked> {
            let tracked = Tracked()
            self.tracked = tracked
            return Gated(tracked)
        }
    }

    @Test func aTerminationDuringADeliveryReleasesTheValueOnlyAsTheDeliveryEnds() {
        let watch = Watch()
        let gated = watch.gated()
        let result = gated.withValue { value -> Int in
            gated.terminate()  // as a cancel from inside the delivery would
            #expect(watch.tracked === value)  // still alive under the delivery
            #expect(gated.withValue { _ in 1 } == nil)  // no delivery starts after it
            return 7
        }
        #expect(result == 7)
        #expect(watch.tracked == nil)  // released by the delivery on its way out
        gated.terminate()  // idempotent
    }

    @Test func theFinalDeliveryRunsOnceAndReleases() {
        let watch = Watch()
        let gated = watch.gated()
        var finals = 0
        gated.withValueFinally { _ in finals += 1 }
        gated.withValueFinally { _ in finals += 1 }
        #expect(finals == 1)
        #expect(gated.withValue { _ in 1 } == nil)
        #expect(watch.tracked == nil)
    }

    @Test func anUnterminatedGateReleasesItsValueWhenItGoes() {
        weak var released: Tracked?
        do {
            let tracked = Tracked()
            released = tracked
            let gated = Gated(tracked)
            #expect(gated.withValue { _ in 1 } == 1)
        }
        #expect(released == nil)
    }
}
