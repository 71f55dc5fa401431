import Sluice
import Testing

/// The examples of SwiftConcurrency.md, compiled and run; `.ci/check-snippets.sh` checks that
/// the article shows exactly the lines between each snippet's markers.
@Suite(.timeLimit(.minutes(12))) struct SwiftConcurrencySnippets {
    @Test func leavingTheLoopCancels() async {
        // snippet ConcurrencyBreakCancels begin
        var cancelled = false
        let naturals = (1...).publisher.handleEvents(receiveCancel: { cancelled = true })
        var firstThree: [Int] = []
        for await n in naturals.values {
            firstThree.append(n)
            if n == 3 { break }   // leaving the loop cancels the subscription
        }
        // firstThree == [1, 2, 3], cancelled == true
        // snippet ConcurrencyBreakCancels end
        #expect(firstThree == [1, 2, 3])
        #expect(cancelled)
    }

    @Test func cancellingTheTaskEndsTheLoop() async {
        // snippet ConcurrencyTaskCancel begin
        let ticks = PassthroughSubject<Int, Never>()
        let loop = Task {
            var received = 0
            for await _ in ticks.values { received += 1 }
            return received   // reached when the task is cancelled: next() returns nil
        }
        loop.cancel()
        let received = await loop.value   // 0
        // snippet ConcurrencyTaskCancel end
        #expect(received == 0)
    }

    @Test func cancelReachesTheProducer() async {
        // snippet ConcurrencyProducerCancel begin
        let (events, log) = AsyncStream<String>.makeStream()
        let numbers = Producer<Int, Never> { sender in
            var n = 0
            while await sender.send(n) { n += 1 }   // false once cancelled
            log.yield("stopped after \(n), task cancelled: \(Task.isCancelled)")
            log.finish()
        }
        let firstTwo = await numbers.prefix(2).collect().firstValue()   // [0, 1]
        var lines = events.makeAsyncIterator()
        let line = await lines.next()   // "stopped after 2, task cancelled: true"
        // snippet ConcurrencyProducerCancel end
        #expect(firstTwo == [0, 1])
        #expect(line == "stopped after 2, task cancelled: true")
    }

    @Test func asyncFutureRunsAtFirstDemand() async {
        // snippet ConcurrencyAsyncFuture begin
        let (calls, record) = AsyncStream<String>.makeStream()
        let profile = AsyncFuture<String, Never> {
            record.yield("called")
            return "Ada"
        }
        // Nothing has run yet: the call is made for each subscriber, at its first demand.
        let name = await profile.firstValue()   // "Ada"
        record.finish()
        var made = 0
        for await _ in calls { made += 1 }      // made == 1
        // snippet ConcurrencyAsyncFuture end
        #expect(name == "Ada")
        #expect(made == 1)
    }

    @Test func awaitingValues() async {
        // snippet ConcurrencyAwaiting begin
        let numbers = [1, 2, 3].publisher
        let first = await numbers.firstValue()              // 1: requests one, then cancels
        let last = await numbers.lastValue()                // 3
        let nothing = await Empty<Int, Never>().firstValue()   // nil
        let answer = await Future<Int, Never> { promise in promise(.success(42)) }.value   // 42
        var onlyError: OnlyValueError<Never>?
        do throws(OnlyValueError<Never>) {
            _ = try await numbers.onlyValue()
        } catch {
            onlyError = error                               // .moreThanOneValue
        }
        // snippet ConcurrencyAwaiting end
        #expect(first == 1)
        #expect(last == 3)
        #expect(nothing == nil)
        #expect(answer == 42)
        if case .moreThanOneValue? = onlyError {} else { Issue.record("expected moreThanOneValue, got \(String(describing: onlyError))") }
    }

    @Test func asyncMapKeepsOrder() async {
        // snippet ConcurrencyAsyncMap begin
        let lengths = await ["a", "bb", "ccc", "dddd"].publisher
            .asyncMap(maxConcurrent: 2) { word in word.count }   // each in a task of its own
            .collect()
            .firstValue()   // [1, 2, 3, 4]: in the upstream's order
        // snippet ConcurrencyAsyncMap end
        #expect(lengths == [1, 2, 3, 4])
    }
}
