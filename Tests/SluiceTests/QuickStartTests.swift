import Sluice
import Testing

/// README.md's quick start, compiled and run. `.ci/check-snippets.sh` checks that the
/// README shows exactly the lines between the markers.
@Suite(.timeLimit(.minutes(12))) struct QuickStartTests {
    @Test func quickStartRunsAsTheReadmeSays() async throws {
        // quick start begin
        // Combine's API: a subject, a subscriber with unlimited demand.
        let temperatures = PassthroughSubject<Double, Never>()
        var readings: [Double] = []
        let cancellable = temperatures.sink { readings.append($0) }
        temperatures.send(21.5)
        temperatures.send(22.0)
        cancellable.cancel()

        // Swift concurrency: each next() requests exactly one element.
        var total = 0
        for await n in (1...10).publisher.values {
            total += n
        }

        // And back: an async sequence as a publisher that iterates only on demand.
        let stream = AsyncStream<Int> { continuation in
            for n in 1...3 { continuation.yield(n) }
            continuation.finish()
        }
        let first = await stream.publisher.firstValue()
        // quick start end
        #expect(readings == [21.5, 22.0])
        #expect(total == 55)
        #expect(first == 1)
    }
}
