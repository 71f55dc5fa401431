import Sluice
import Testing

// The examples in the doc comments of Publishers/Future/Future.swift, compiled and run.

@Suite(.timeLimit(.minutes(12))) struct FutureExamples {
    @Test func resultIsKeptForLaterSubscribers() async {
        // snippet FutureKeepsItsResult begin
        let future = Future<Int, Never> { promise in
            Task { promise(.success(42)) }   // the closure runs now; the promise is kept for later
        }
        let first = await future.value       // 42
        let second = await future.value      // 42 again: the result is kept, not made again
        #expect(first == 42)
        #expect(second == 42)
        // snippet FutureKeepsItsResult end
    }

    @Test func closureRunsOnceWhenTheFutureIsMade() {
        var runs = 0
        let future = Future<Int, Never> { promise in
            runs += 1
            promise(.success(1))
        }
        #expect(runs == 1)
        var received: [Int] = []
        _ = future.sink { received.append($0) }
        _ = future.sink { received.append($0) }
        #expect(received == [1, 1])
        #expect(runs == 1)
    }
}
