import Sluice
import Testing

// The doc comments' examples in MainActorAsyncSequencePublisher.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

private final class EventSequence: ScriptedSequence {
    init() { super.init(["tap", "swipe"]) }
}

@Suite(.timeLimit(.minutes(12))) struct MainActorAsyncSequencePublisherExamples {
    @Test @MainActor func aSequenceOfMainActorStateIsIteratedOnTheMainActor() async {
        let (shown, shownContinuation) = AsyncStream<String>.makeStream()
        func show(_ event: String) { shownContinuation.yield(event) }
        // snippet MainActorAsyncSequencePublisherModel begin
        @MainActor final class Model {
            let events = EventSequence()   // an AsyncSequence that is not Sendable
        }
        let model = Model()
        let publisher = MainActor.publisher { model.events }
        let cancellable = publisher.sink { show($0) }
        // snippet MainActorAsyncSequencePublisherModel end
        #expect(await prefix(2, of: shown) == ["tap", "swipe"])
        cancellable.cancel()
    }
}
