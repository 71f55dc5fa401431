import Sluice
import Testing

/// The examples of GettingStarted.md, compiled and run; `.ci/check-snippets.sh` checks that the
/// article shows exactly the lines between each snippet's markers.
@Suite(.timeLimit(.minutes(12))) struct GettingStartedSnippets {
    @Test func combineCode() {
        // snippet GettingStartedCombine begin
        let celsius = PassthroughSubject<Double, Never>()
        var fahrenheit: [Double] = []
        let cancellable = celsius
            .map { $0 * 9 / 5 + 32 }
            .filter { $0 > 50 }
            .sink { fahrenheit.append($0) }
        celsius.send(5)      // 41 °F: filtered out
        celsius.send(20)     // 68 °F
        cancellable.cancel()
        celsius.send(30)     // nobody subscribes any more: nothing happens
        // fahrenheit == [68.0]
        // snippet GettingStartedCombine end
        #expect(fahrenheit == [68.0])
    }

    @Test func forAwaitOverValues() async {
        // snippet GettingStartedValues begin
        let words = ["demand", "driven", "pipes"].publisher
        var lengths: [Int] = []
        for await word in words.values {
            lengths.append(word.count)
        }
        // lengths == [6, 6, 5]
        // snippet GettingStartedValues end
        #expect(lengths == [6, 6, 5])
    }

    @Test func typedFailure() async {
        // snippet GettingStartedTypedFailure begin
        struct Offline: Error {}
        let feed = Record<Int, Offline>(output: [1, 2], completion: .failure(Offline()))
        var readings: [Int] = []
        var failure: Offline?
        do throws(Offline) {
            for try await reading in feed.values { readings.append(reading) }
        } catch {
            failure = error   // an Offline, not `any Error`
        }
        // readings == [1, 2], failure != nil
        // snippet GettingStartedTypedFailure end
        #expect(readings == [1, 2])
        #expect(failure != nil)
    }

    @Test func asyncCodeAsPublishers() async {
        // snippet GettingStartedProducer begin
        let countdown = Producer<Int, Never> { sender in
            for n in [3, 2, 1] {
                guard await sender.send(n) else { return }   // false: cancelled
            }
        }
        let counted = await countdown.collect().firstValue()   // [3, 2, 1]

        let stream = AsyncStream<Int> { continuation in
            for n in 1...3 { continuation.yield(n) }
            continuation.finish()
        }
        let doubled = await stream.publisher.map { $0 * 2 }.collect().firstValue()   // [2, 4, 6]
        // snippet GettingStartedProducer end
        #expect(counted == [3, 2, 1])
        #expect(doubled == [2, 4, 6])
    }
}
