import Testing
@_spi(Internals) import Sluice
import SluiceTesting

private struct Boom: Error {}

@Suite("dropFirst, drop(while:), prefix(while:), prefix, output(at:), output(in:) and their try forms", .timeLimit(.minutes(6)))
struct SelectingOperatorTests {
    @Test("dropFirst omits the first elements, asking for one more for each")
    func dropFirst() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.dropFirst(2).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.send(1) == .max(1))
        #expect(subscription.send(2) == .max(1))
        #expect(subscription.send(3) == .none)
        #expect(recorder.values == [3])
        var all: [Int] = []
        _ = (1...5).publisher.dropFirst().sink { all.append($0) }
        #expect(all == [2, 3, 4, 5])
    }

    @Test("drop(while:) omits the leading run only; prefix(while:) finishes at the first failure and cancels upstream")
    func whileForms() {
        let values = [1, 2, 5, 1, 6]
        var dropped: [Int] = []
        _ = values.publisher.drop { $0 < 3 }.sink { dropped.append($0) }
        #expect(dropped == [5, 1, 6])

        let upstream = ControllablePublisher<Int, Never>()

        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.prefix { $0 < 3 }.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        for value in values { _ = subscription.send(value) }
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == .finished)
        #expect(subscription.cancelCount == 1)
        #expect(recorder.events.count == 4)   // subscription, 1, 2, finished
    }

    @Test("tryDrop(while:) and tryPrefix(while:) fail on a throw and cancel upstream")
    func tryWhileForms() {
        for prefix in [false, true] {
            let upstream = ControllablePublisher<Int, Never>()
            defer { upstream.detachAll() }
            let recorder = RecordingSubscriber<Int, any Error>()
            let predicate: (Int) throws -> Bool = { if $0 == 3 { throw Boom() }; return true }
            if prefix {
                upstream.tryPrefix(while: predicate).subscribe(recorder)
            } else {
                upstream.tryDrop(while: predicate).subscribe(recorder)
            }
            let subscription = upstream.subscriptions[0]
            for value in 1...4 { _ = subscription.send(value) }
            #expect(recorder.values == (prefix ? [1, 2] : []))
            #expect(subscription.cancelCount == 1)
            guard case .failure(let error)? = recorder.completion else { Issue.record("no failure"); continue }
            #expect(error is Boom)
        }
    }

    @Test("prefix(n) sends n elements and finishes at once, cancelling the upstream; over an endless sequence too")
    func prefixCount() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.prefix(2).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(10)
        _ = subscription.send(20)
        #expect(recorder.values == [10, 20])
        #expect(recorder.completion == .finished)
        #expect(subscription.cancelCount == 1)
        _ = subscription.send(30)
        #expect(recorder.values == [10, 20])

        var endless: [Int] = []
        _ = (1...).publisher.prefix(3).sink { endless.append($0) }
        #expect(endless == [1, 2, 3])
    }

    @Test("output(at:) and output(in:) select by position; an empty range finishes at the first element")
    func outputPositions() {
        var at: [Int] = []
        _ = (10...20).publisher.output(at: 3).sink { at.append($0) }
        #expect(at == [13])
        var within: [Int] = []
        _ = (10...20).publisher.output(in: 2..<5).sink { within.append($0) }
        #expect(within == [12, 13, 14])
        var from: [Int] = []
        _ = (10...13).publisher.output(in: 2...).sink { from.append($0) }
        #expect(from == [12, 13])
        let recorder = RecordingSubscriber<Int, Never>()
        (1...3).publisher.prefix(0).subscribe(recorder)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == .finished)
    }

    @Test("a negative count traps with a message naming the call")
    func negativeCountTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).dropFirst(-1)
        }
        await #expect(processExitsWith: .failure) {
            _ = Just(1).prefix(-2)
        }
    }
}
