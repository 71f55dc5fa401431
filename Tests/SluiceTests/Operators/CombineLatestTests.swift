import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

@Suite("combineLatest: CombineLatest, CombineLatest3, CombineLatest4, with and without a transform")
struct CombineLatestTests {
    @Test("once each upstream has sent, every element publishes the latest of each")
    func latestOfEach() {
        let numbers = PassthroughSubject<Int, Never>()
        let letters = PassthroughSubject<String, Never>()
        let recorder = RecordingSubscriber<String, Never>()
        defer { recorder.cancel() }
        numbers.combineLatest(letters) { "\($0)\($1)" }.subscribe(recorder)
        numbers.send(1)
        numbers.send(2)
        #expect(recorder.values.isEmpty)
        letters.send("a")
        numbers.send(3)
        letters.send("b")
        #expect(recorder.values == ["2a", "3a", "3b"] && recorder.violations.isEmpty)
    }

    @Test("every upstream is asked for what the downstream asks for; an element without demand is only remembered, as in Combine")
    func demand() {
        let left = ControllablePublisher<Int, Never>()
        let right = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        left.combineLatest(right, +).subscribe(recorder)
        let a = left.subscriptions[0], b = right.subscriptions[0]
        #expect(a.requests == [.max(1)] && b.requests == [.max(1)])
        _ = a.send(1)
        _ = b.send(10)
        #expect(recorder.values == [11])
        _ = a.send(2)  // over-sent, and no demand: remembered only
        #expect(recorder.values == [11])
        recorder.request(.max(1))
        #expect(recorder.values == [11], "a request does not publish the remembered combination")
        #expect(a.requests == [.max(1), .max(1)] && b.requests == [.max(1), .max(1)])
        _ = b.send(20)
        #expect(recorder.values == [11, 22], "the latest of the other upstream was kept")
        #expect(recorder.violations.isEmpty)
    }

    @Test("the demand a value returns goes back to its upstream only, as in Combine; a request goes to all")
    func returnedDemand() {
        let left = ControllablePublisher<Int, Never>()
        let right = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        defer { recorder.cancel() }
        left.combineLatest(right, +).subscribe(recorder)
        _ = left.subscriptions[0].send(1)
        #expect(right.subscriptions[0].send(1) == .max(2))
        #expect(left.subscriptions[0].requests == [.max(1)], "the other upstream did not make the pair")
        recorder.request(.max(3))
        #expect(left.subscriptions[0].requests == [.max(1), .max(3)] && right.subscriptions[0].requests == [.max(1), .max(3)])
    }

    @Test("finishes only when every upstream has, even one that never sent")
    func finishing() {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        left.combineLatest(right, +).subscribe(recorder)
        left.send(1)
        left.send(completion: .finished)
        #expect(recorder.completion == nil)
        right.send(5)
        #expect(recorder.values == [6], "a finished upstream's latest element still combines")
        right.send(completion: .finished)
        #expect(recorder.completion == .finished && recorder.violations.isEmpty)
    }

    @Test("a failure fails it at once and cancels the others")
    func failure() {
        let left = PassthroughSubject<Int, Boom>()
        let right = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>()
        defer { recorder.cancel() }
        left.combineLatest(right, +).subscribe(recorder)
        left.send(completion: .failure(Boom()))
        #expect(recorder.completion == .failure(Boom()) && right.subscriptions[0].cancelCount == 1)
        _ = right.subscriptions[0].send(1)
        #expect(recorder.values.isEmpty && recorder.violations.isEmpty)
    }

    @Test("an element sent from inside the downstream's receive is published after, not lost")
    func reentrantSend() {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        recorder.onValue { value in
            if value == 11 { left.send(2) }
            return .none
        }
        left.combineLatest(right, +).subscribe(recorder)
        left.send(1)
        right.send(10)
        #expect(recorder.values == [11, 12] && recorder.violations.isEmpty)
    }

    @Test("CombineLatest3 and CombineLatest4 and their transforms; the overloads build the public types")
    func arities() {
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>(), d = PassthroughSubject<Int, Never>()
        let three = RecordingSubscriber<[Int], Never>()
        let four = RecordingSubscriber<[Int], Never>()
        defer { three.cancel(); four.cancel() }
        a.combineLatest(b, c) { [$0, $1, $2] }.subscribe(three)
        a.combineLatest(b, c, d) { [$0, $1, $2, $3] }.subscribe(four)
        a.send(1); b.send(2); c.send(3); d.send(4); a.send(5)
        #expect(three.values == [[1, 2, 3], [5, 2, 3]])
        #expect(four.values == [[1, 2, 3, 4], [5, 2, 3, 4]])
        let typed: Publishers.CombineLatest4<Just<Int>, Just<Int>, Just<Int>, Just<Int>> = Just(1).combineLatest(Just(2), Just(3), Just(4))
        #expect(typed == Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(4)))
        let tuples = RecordingSubscriber<String, Never>()
        Just(1).combineLatest(Just("x"), Just(true)).map { "\($0)\($1)\($2)" }.subscribe(tuples)
        #expect(tuples.values == ["1xtrue"] && tuples.completion == .finished)
    }

    @Test("describes itself as Combine's does")
    func description() {
        let recorder = RecordingSubscriber<(Int, Int), Never>()
        defer { recorder.cancel() }
        Just(1).combineLatest(Just(2)).subscribe(recorder)
        #expect(recorder.subscription.map { "\($0)" } == "CombineLatest")
    }
}
