import Testing
import Sluice
import SluiceTesting

private struct Boom: Error {}

@Suite("dropFirst, drop(while:), prefix(while:), prefix, output(at:), output(in:) and their try forms", .timeLimit(.minutes(12)))
struct SelectingOperatorTests {
    @Test("dropFirst asks for the elements it omits once, with the downstream's first demand, and nothing for each (as in Combine)")
    func dropFirst() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.dropFirst(2).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.max(3)])
        #expect(subscription.send(1) == .none)
        #expect(subscription.send(2) == .none)
        #expect(subscription.send(3) == .none)
        #expect(recorder.values == [3])
        #expect(String(describing: recorder.subscription!) == "Drop")
        recorder.subscription?.request(.max(4))
        #expect(subscription.requests == [.max(3), .max(4)], "later requests pass one for one")
        subscription.send(completion: .finished)
        #expect(recorder.completion == .finished)
        var all: [Int] = []
        _ = (1...5).publisher.eraseToAnyPublisher().dropFirst().sink { all.append($0) }
        #expect(all == [2, 3, 4, 5])
    }

    @Test("dropFirst hands its subscription down before its upstream's comes: requests made meanwhile are gathered, a cancel is ignored")
    func dropFirstBeforeTheUpstreamSubscription() throws {
        let handing = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(5))
        handing.dropFirst(3).subscribe(recorder)
        #expect(String(describing: try #require(recorder.subscription)) == "Drop")
        recorder.subscription?.request(.max(2))
        recorder.subscription?.cancel()
        let upstream = LoggingSubscription()
        try #require(handing.subscriber).receive(subscription: upstream)
        #expect(upstream.requests == [.max(10)], "5 + 2 asked for, and the 3 to omit")
        #expect(upstream.cancelCount == 0, "the cancel before the subscription was ignored, as in Combine")
        let second = LoggingSubscription()
        try #require(handing.subscriber).receive(subscription: second)
        #expect(second.cancelCount == 1 && second.requests.isEmpty)
        recorder.cancel()
        #expect(upstream.cancelCount == 1)
    }

    @Test("dropFirst passes a value and a completion that come before its upstream's subscription, which it then cancels")
    func dropFirstEarlySignals() throws {
        let handing = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        handing.dropFirst(0).subscribe(recorder)
        let subscriber = try #require(handing.subscriber)
        #expect(subscriber.receive(7) == .none)
        subscriber.receive(completion: .finished)
        #expect(recorder.values == [7])
        #expect(recorder.completion == .finished)
        let upstream = LoggingSubscription()
        subscriber.receive(subscription: upstream)
        #expect(upstream.cancelCount == 1 && upstream.requests.isEmpty)
    }

    @Test(
        "dropFirst traps on a request of .none, and on a negative count when its upstream's subscription comes (not before)",
        .exitTest
    )
    func dropFirstTraps() async {
        _ = Empty<Int, Never>().dropFirst(-1)   // creating it is fine, as in Combine
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PassthroughSubject<Int, Never>().dropFirst(-1).sink { _ in }
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("dropFirst(_:) takes a count that is not negative, got -1"))
        }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let handing = HandingPublisher<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            handing.dropFirst().subscribe(recorder)
            recorder.subscription?.request(.none)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("request(.max(0))"))
        }
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

    @Test("prefix(n) sends n elements and finishes at once, cancelling the upstream first (as Combine does); over an endless sequence too")
    func prefixCount() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(3))
        upstream.prefix(2).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.send(10) == .max(3))
        #expect(subscription.send(20) == .max(3), "the last value's demand goes back as any value's does")
        #expect(recorder.values == [10, 20])
        #expect(recorder.completion == .finished)
        #expect(subscription.cancelCount == 1)
        _ = subscription.send(30)
        #expect(recorder.values == [10, 20])

        var endless: [Int] = []
        _ = (1...).publisher.prefix(3).sink { endless.append($0) }
        #expect(endless == [1, 2, 3])

        let other = ControllablePublisher<Int, Never>()
        defer { other.detachAll() }
        var cancelsAtCompletion: [Int] = []
        let sink = other.prefix(1).sink(receiveCompletion: { _ in cancelsAtCompletion.append(other.subscriptions[0].cancelCount) }, receiveValue: { _ in })
        _ = other.subscriptions[0].send(1)
        #expect(cancelsAtCompletion == [1], "the upstream is cancelled before the completion goes out")
        sink.cancel()
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

    @Test("a negative count traps with a message naming the call", .exitTest)
    func negativeCountTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).dropFirst(-1)   // Just's own overload checks when called, as Combine's does
        }
        await #expect(processExitsWith: .failure) {
            _ = Just(1).prefix(-2)
        }
    }
}
