import Sluice
import Testing

// The doc comments' examples in AsyncSequencePublisher.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@Suite(.timeLimit(.minutes(12))) struct AsyncSequencePublisherExamples {
    @Test func theStreamsElementsArriveInOrder() async {
        let (shown, shownContinuation) = AsyncStream<Int>.makeStream()
        func show(_ number: Int) { shownContinuation.yield(number) }
        // snippet AsyncSequencePublisherStream begin
        let stream = AsyncStream<Int> { c in c.yield(1); c.yield(2); c.finish() }
        let cancellable = stream.publisher.sink { show($0) }   // shows 1, then 2, from the iterating task
        // snippet AsyncSequencePublisherStream end
        #expect(await prefix(2, of: shown) == [1, 2])
        cancellable.cancel()
    }
}
