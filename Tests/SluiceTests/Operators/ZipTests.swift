import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

@Suite("zip: Zip, Zip3, Zip4, with and without a transform")
struct ZipTests {
    @Test("elements are paired in order, each waiting for its partner")
    func pairsInOrder() {
        let numbers = PassthroughSubject<Int, Never>()
        let letters = PassthroughSubject<String, Never>()
        let recorder = RecordingSubscriber<String, Never>()
        defer { recorder.cancel() }
        numbers.zip(letters) { "\($0)\($1)" }.subscribe(recorder)
        numbers.send(1)
        numbers.send(2)
        #expect(recorder.values.isEmpty)
        letters.send("a")
        letters.send("b")
        letters.send("c")
        #expect(recorder.values == ["1a", "2b"])
        numbers.send(3)
        #expect(recorder.values == ["1a", "2b", "3c"] && recorder.violations.isEmpty)
    }

    @Test("every upstream is asked for what the downstream asks for, including the demand returned from a value")
    func demandToEveryUpstream() {
        let left = ControllablePublisher<Int, Never>()
        let right = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        defer { recorder.cancel() }
        left.zip(right, +).subscribe(recorder)
        let a = left.subscriptions[0], b = right.subscriptions[0]
        #expect(a.requests == [.max(2)] && b.requests == [.max(2)])
        _ = a.send(1)
        #expect(b.send(10) == .max(1), "the pair went out: its upstream gets its share as the returned demand")
        #expect(a.requests == [.max(2), .max(1)], "the other is asked for the same")
        #expect(recorder.values == [11])
        recorder.request(.max(3))
        #expect(a.requests.last == .max(3) && b.requests.last == .max(3))
        #expect(recorder.violations.isEmpty)
    }

    @Test("demand requested from inside receive is returned to the upstream whose value made the pair and requested from the others, as Combine's zip does", arguments: [Subscribers.Demand.unlimited, .max(10)])
    func reentrantRequestReturnedToTheSender(initialDemand: Subscribers.Demand) {
        let left = ControllablePublisher<Int, Never>()
        let right = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: initialDemand)
        defer { recorder.cancel() }
        recorder.onValue { _ in recorder.request(.max(666)); return .none }
        left.zip(right, +).subscribe(recorder)
        let a = left.subscriptions[0], b = right.subscriptions[0]
        #expect(a.send(1) == .none)
        #expect(b.send(1) == .max(666))
        #expect(a.requests == [initialDemand, .max(666)])
        #expect(b.requests == [initialDemand])
        recorder.request(.max(5))
        #expect(a.requests.last == .max(5) && b.requests.last == .max(5), "outside a delivery, every upstream is asked")
        #expect(recorder.values == [2] && recorder.violations.isEmpty)
    }

    @Test("demand requested before the upstreams subscribe is asked of each when it does")
    func demandBeforeSubscription() {
        let recorder = RecordingSubscriber<[Int], Never>()
        defer { recorder.cancel() }
        (0..<3).publisher.zip((10..<20).publisher) { [$0, $1] }.subscribe(recorder)
        #expect(recorder.values == [[0, 10], [1, 11], [2, 12]])
        #expect(recorder.completion == .finished, "the first upstream finished and every element of it is paired")
    }

    @Test("a pair that upstreams sending beyond their demand complete goes out without demand, as Combine's zip sends it")
    func overSentPairGoesOut() {
        let left = ControllablePublisher<Int, Never>()
        let right = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        left.zip(right, +).subscribe(recorder)
        let a = left.subscriptions[0], b = right.subscriptions[0]
        _ = a.send(1)
        _ = b.send(1)
        // Both over-send (a violation of theirs): Combine's zip sends the pair they make anyway.
        _ = a.send(2)
        #expect(recorder.values == [2])
        #expect(b.send(2) == .none)
        #expect(recorder.values == [2, 4])
        a.send(completion: .finished)
        #expect(recorder.completion == .finished)
        #expect(b.cancelCount == 1, "the upstream still running is cancelled")

        // The demand the downstream returns for such a pair is the sender's to return, as for any pair.
        let c = ControllablePublisher<Int, Never>(), d = ControllablePublisher<Int, Never>()
        let asking = RecordingSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(1))
        defer { asking.cancel() }
        c.zip(d, +).subscribe(asking)
        _ = c.subscriptions[0].send(1)
        #expect(d.subscriptions[0].send(2) == .max(1))
        #expect(asking.values == [3])
        #expect(c.subscriptions[0].requests == [.max(1)])
    }

    @Test("an upstream that finishes with unpaired elements ends the zip only when they are paired")
    func finishesWhenNoPairIsPossible() {
        let left = PassthroughSubject<Int, Never>()
        let right = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        left.zip(right, +).subscribe(recorder)
        left.send(1)
        left.send(2)
        left.send(completion: .finished)
        #expect(recorder.completion == nil)
        _ = right.subscriptions[0].send(10)
        #expect(recorder.values == [11] && recorder.completion == nil)
        _ = right.subscriptions[0].send(20)
        #expect(recorder.values == [11, 22] && recorder.completion == .finished)
        #expect(right.subscriptions[0].cancelCount == 1)
    }

    @Test("a failure fails the zip at once, dropping unpaired elements and cancelling the others")
    func failure() {
        let left = PassthroughSubject<Int, Boom>()
        let right = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>()
        defer { recorder.cancel() }
        left.zip(right, +).subscribe(recorder)
        left.send(1)
        left.send(completion: .failure(Boom()))
        #expect(recorder.completion == .failure(Boom()))
        #expect(right.subscriptions[0].cancelCount == 1)
        _ = right.subscriptions[0].send(5)
        #expect(recorder.values.isEmpty && recorder.violations.isEmpty)
    }

    @Test("cancel cancels every upstream and delivers nothing more")
    func cancellation() {
        let left = ControllablePublisher<Int, Never>()
        let right = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        left.zip(right, +).subscribe(recorder)
        recorder.cancel()
        #expect(left.subscriptions[0].cancelCount == 1 && right.subscriptions[0].cancelCount == 1)
        _ = left.subscriptions[0].send(1)
        _ = right.subscriptions[0].send(1)
        #expect(recorder.values.isEmpty && recorder.completion == nil)
    }

    @Test("Zip3 and Zip4, and their transforms, combine in order; the tuple overloads build the public types")
    func arities() {
        let three = RecordingSubscriber<[Int], Never>()
        Just(1).zip(Just(2), Just(3)) { [$0, $1, $2] }.subscribe(three)
        #expect(three.values == [[1, 2, 3]] && three.completion == .finished)
        let four = RecordingSubscriber<[Int], Never>()
        (0..<2).publisher.zip((10..<12).publisher, (20..<22).publisher, (30..<40).publisher) { [$0, $1, $2, $3] }
            .subscribe(four)
        #expect(four.values == [[0, 10, 20, 30], [1, 11, 21, 31]] && four.completion == .finished)

        let tuple: Publishers.Zip3<Just<Int>, Just<String>, Just<Bool>> = Just(1).zip(Just("a"), Just(true))
        let quad: Publishers.Zip4<Just<Int>, Just<Int>, Just<Int>, Just<Int>> = Just(1).zip(Just(2), Just(3), Just(4))
        #expect(tuple.b == Just("a") && quad == Publishers.Zip4(Just(1), Just(2), Just(3), Just(4)))
        let pairs = RecordingSubscriber<String, Never>()
        Publishers.Zip(Just(1), Just("x")).map { "\($0)\($1)" }.subscribe(pairs)
        #expect(pairs.values == ["1x"])
    }

    @Test("a long synchronous zip (one upstream queued whole, then paired) does not recurse per element")
    func longSynchronousZip() {
        var count = 0
        var last = (0, 0)
        let cancellable = (0..<100_000).publisher.zip((0..<100_000).publisher).sink { count += 1; last = $0 }
        _ = cancellable
        #expect(count == 100_000 && last == (99_999, 99_999))
    }

    @Test("describes itself as Combine's does")
    func description() {
        let recorder = RecordingSubscriber<(Int, Int), Never>()
        defer { recorder.cancel() }
        Just(1).zip(Just(2)).subscribe(recorder)
        #expect(recorder.subscription.map { "\($0)" } == "Zip")
    }
}

extension ZipTests {
    @Test("as Combine's: a request after .unlimited still reaches every upstream, and a failure cancels the failed upstream too")
    func combineDemandAndFailure() {
        let left = ControllablePublisher<Int, Boom>()
        let right = ControllablePublisher<Int, Boom>()
        defer { left.detachAll(); right.detachAll() }
        let recorder = RecordingSubscriber<Int, Boom>(initialDemand: .unlimited)
        defer { recorder.cancel() }
        left.zip(right, +).subscribe(recorder)
        recorder.request(.max(2))
        let a = left.subscriptions[0], b = right.subscriptions[0]
        #expect(a.requests == [.unlimited, .max(2)] && b.requests == [.unlimited, .max(2)])
        #expect(a.send(1) == .none && b.send(2) == .none && recorder.values == [3])
        #expect(a.requests.count == 2 && b.requests.count == 2, "nothing is asked for in place of a value")
        a.send(completion: .failure(Boom()))
        #expect(recorder.completion == .failure(Boom()))
        #expect(a.history.last == .cancel && b.history.last == .cancel)
        #expect(recorder.violations.isEmpty)
    }
}
