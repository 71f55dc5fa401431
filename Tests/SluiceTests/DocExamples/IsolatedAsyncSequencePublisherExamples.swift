import Sluice
import Testing

// The doc comments' examples in IsolatedAsyncSequencePublisher.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

private final class Entries: ScriptedSequence {
    init() { super.init(["first", "second"]) }
}

@Suite(.timeLimit(.minutes(12))) struct IsolatedAsyncSequencePublisherExamples {
    @Test func aSequenceTheActorOwnsIsIteratedOnTheActor() async {
        let (shown, shownContinuation) = AsyncStream<String>.makeStream()
        func show(_ entry: String) { shownContinuation.yield(entry) }
        // snippet IsolatedAsyncSequencePublisherFeed begin
        actor Feed {
            let entries = Entries()   // an AsyncSequence that is not Sendable
        }
        let feed = Feed()
        let publisher = IsolatedAsyncSequencePublisher(iteratingOn: feed) { feed in feed.entries }
        let cancellable = publisher.sink { show($0) }   // or: feed.publisher { $0.entries }.sink { … }
        // snippet IsolatedAsyncSequencePublisherFeed end
        #expect(await prefix(2, of: shown) == ["first", "second"])
        cancellable.cancel()
    }
}
