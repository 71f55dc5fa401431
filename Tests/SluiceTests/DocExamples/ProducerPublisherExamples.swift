import Sluice
import Testing

// The doc comments' examples in ProducerPublisher.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@Suite(.timeLimit(.minutes(12))) struct ProducerPublisherExamples {
    @Test func theBodySendsEachNumberAsItIsAskedFor() async {
        let (shown, shownContinuation) = AsyncStream<Int>.makeStream()
        func show(_ number: Int) { shownContinuation.yield(number) }
        // snippet ProducerNumbers begin
        let numbers = Producer<Int, Never> { sender in
            for n in 1...3 {
                guard await sender.send(n) else { return }   // false: cancelled
            }
        }
        let cancellable = numbers.sink { show($0) }   // shows 1, 2, 3
        // snippet ProducerNumbers end
        #expect(await prefix(3, of: shown) == [1, 2, 3])
        cancellable.cancel()
    }
}
