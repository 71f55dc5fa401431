// Key-value observing needs the Objective-C runtime, so this runs on Apple platforms only
// (as KeyValueObserving.swift itself builds only there).
#if canImport(ObjectiveC)
import Foundation
import Sluice
import SluiceFoundation
import Testing

// The doc comments' examples in KeyValueObserving.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@Suite struct KeyValueObservingExamples {
    final class Player: NSObject {
        @objc dynamic var rate: Float = 0
    }

    final class PlayButton {
        var isPlaying = false
    }

    @Test func theButtonFollowsThePlayersRateFromItsCurrentValue() {
        let player = Player()
        let button = PlayButton()
        button.isPlaying = true   // the initial value must set it back
        // snippet KeyValueObservingRate begin
        let cancellable = player.publisher(for: \.rate).sink { rate in button.isPlaying = rate > 0 }
        // snippet KeyValueObservingRate end
        #expect(!button.isPlaying)
        player.rate = 1
        #expect(button.isPlaying)
        cancellable.cancel()
    }
}
#endif
