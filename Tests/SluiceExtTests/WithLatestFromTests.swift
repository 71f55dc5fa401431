import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("withLatestFrom (CombineExt)")
struct WithLatestFromTests {
    @Test("CombineExt: upstream values before the other has one are dropped, later ones pair with its latest; the other finishing ends nothing, the upstream finishing ends the stream")
    func pairsWithTheLatestAndEndsWithTheUpstream() {
        let upstream = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<String, Never>()
        let recorder = RecordingSubscriber<String, Never>()
        upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        other.send("bar")
        upstream.send(3)
        other.send("foo")
        other.send("qux")
        upstream.send(4)
        #expect(recorder.values == ["3bar", "4qux"])
        other.send(completion: .finished)
        upstream.send(5)
        #expect(recorder.values == ["3bar", "4qux", "5qux"])
        #expect(recorder.completion == nil)
        upstream.send(completion: .finished)
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("CombineExt (no result selector): each upstream value gives the other's latest value")
    func withoutSelectorGivesTheLatest() {
        let upstream = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<String, Never>()
        let recorder = RecordingSubscriber<String, Never>()
        upstream.withLatestFrom(other).subscribe(recorder)
        upstream.send(1)
        other.send("a")
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.values == ["a", "a"])
        recorder.cancel()
    }

    @Test("CombineExt (limited demand): the downstream's demand reaches the upstream one for one, a dropped value asks for one more, and the other is asked for .unlimited")
    func demandFollowsTheDownstream() {
        let upstream = ControllablePublisher<Int, Never>()
        let other = ControllablePublisher<String, Never>()
        defer { upstream.detachAll(); other.detachAll() }
        let recorder = RecordingSubscriber<String, Never>(initialDemand: .max(2))
        upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(recorder)
        let up = upstream.subscriptions[0], side = other.subscriptions[0]
        #expect(side.requests == [.unlimited])
        #expect(up.requests == [.max(2)])
        #expect(up.send(1) == .max(1))  // dropped: one more in its place
        _ = side.send("x")
        #expect(up.send(2) == .none)
        #expect(up.send(3) == .none)
        #expect(recorder.values == ["2x", "3x"])
        recorder.request(.max(1))
        #expect(up.requests == [.max(2), .max(1)])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("CombineExt: with no downstream demand (.none) nothing is requested from the upstream and nothing is delivered")
    func noDemandRequestsNothing() {
        let upstream = ControllablePublisher<Int, Never>()
        let other = CurrentValueSubject<String, Never>("x")
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<String, Never>(initialDemand: .none)
        upstream.withLatestFrom(other).subscribe(recorder)
        #expect(upstream.subscriptions[0].requests.isEmpty)
        #expect(recorder.values.isEmpty)
        recorder.cancel()
    }

    @Test("RxSwift and CombineExt issue 87: the upstream finishing before the other has a value finishes the stream and cancels the other")
    func upstreamFinishingFirstFinishes() {
        let upstream = PassthroughSubject<Int, Never>()
        let other = ControllablePublisher<Int, Never>()
        defer { other.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.withLatestFrom(other).subscribe(recorder)
        upstream.send(completion: .finished)
        #expect(recorder.completion == .finished)
        #expect(other.subscriptions[0].cancelCount == 1)
    }

    @Test("The upstream's failure fails the stream and cancels the other")
    func upstreamFailureFails() {
        let upstream = PassthroughSubject<Int, Oops>()
        let other = ControllablePublisher<Int, Oops>()
        defer { other.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>()
        upstream.withLatestFrom(other).subscribe(recorder)
        upstream.send(completion: .failure(Oops()))
        #expect(recorder.completion == .failure(Oops()))
        #expect(other.subscriptions[0].cancelCount == 1)
    }

    @Test("Unlike CombineExt (which ignores it), the other's failure fails the stream and cancels the upstream, as RxSwift's withLatestFrom")
    func otherFailureFails() {
        let upstream = ControllablePublisher<Int, Oops>()
        let other = PassthroughSubject<Int, Oops>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>()
        upstream.withLatestFrom(other).subscribe(recorder)
        other.send(completion: .failure(Oops()))
        #expect(recorder.completion == .failure(Oops()))
        #expect(upstream.subscriptions[0].cancelCount == 1)
        _ = upstream.subscriptions[0].send(1)
        #expect(recorder.values.isEmpty)
        #expect(recorder.violations.isEmpty)
    }

    @Test("The other failing while an upstream value is out to the downstream (re-entrantly) fails the stream only after that value returns")
    func otherFailureDuringDeliveryWaits() {
        let upstream = PassthroughSubject<Int, Oops>()
        let other = PassthroughSubject<Int, Oops>()
        let recorder = RecordingSubscriber<Int, Oops>()
        let shared = Shared(other)
        recorder.onValue { _ in
            shared.value.send(completion: .failure(Oops()))
            return .none
        }
        upstream.withLatestFrom(other) { $0 + $1 }.subscribe(recorder)
        other.send(10)
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.values == [11])
        #expect(recorder.completion == .failure(Oops()))
        #expect(recorder.violations.isEmpty)
    }

    @Test("CombineExt (two others): each upstream value with the latest of both, once both have one; only the upstream's finish ends the stream")
    func twoOthers() {
        let upstream = PassthroughSubject<Int, Never>()
        let first = PassthroughSubject<String, Never>()
        let second = PassthroughSubject<Bool, Never>()
        let recorder = RecordingSubscriber<String, Never>()
        upstream.withLatestFrom(first, second).map { "\($0)|\($1)|\($2)" }.subscribe(recorder)
        upstream.send(1)
        first.send("bar")
        upstream.send(2)
        second.send(true)
        upstream.send(3)
        first.send("foo")
        second.send(false)
        upstream.send(4)
        #expect(recorder.values == ["3|bar|true", "4|foo|false"])
        first.send(completion: .finished)
        second.send(completion: .finished)
        #expect(recorder.completion == nil)
        upstream.send(completion: .finished)
        #expect(recorder.completion == .finished)
    }

    @Test("Two and three others with a result selector, and three without")
    func selectorsForTwoAndThree() {
        let upstream = PassthroughSubject<Int, Never>()
        let a = CurrentValueSubject<Int, Never>(10)
        let b = CurrentValueSubject<Int, Never>(100)
        let c = CurrentValueSubject<Int, Never>(1000)
        let two = RecordingSubscriber<Int, Never>()
        let three = RecordingSubscriber<Int, Never>()
        let tuples = RecordingSubscriber<[Int], Never>()
        upstream.withLatestFrom(a, b) { $0 + $1.0 + $1.1 }.subscribe(two)
        upstream.withLatestFrom(a, b, c) { $0 + $1.0 + $1.1 + $1.2 }.subscribe(three)
        upstream.withLatestFrom(a, b, c).map { [$0, $1, $2, $3] }.subscribe(tuples)
        upstream.send(1)
        b.send(200)
        upstream.send(2)
        #expect(two.values == [111, 212])
        #expect(three.values == [1111, 1212])
        #expect(tuples.values == [[1, 10, 100, 1000], [2, 10, 200, 1000]])
        for recorder in [two, three] { recorder.cancel() }
        tuples.cancel()
    }

    @Test("The upstream and the other sending on two threads at once: the downstream's signals never overlap, and each value pairs with a latest value no older than the one before")
    func concurrentUpstreamAndOther() {
        let count = StressBudget.scaled(20_000)
        let upstream = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.withLatestFrom(other).subscribe(recorder)
        runConcurrently(threads: 2) { thread in
            for value in 0..<count {
                if thread == 0 { upstream.send(value) } else { other.send(value) }
            }
        }
        let values = recorder.values
        #expect(values.count <= count)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("Cancel cancels both subscriptions, delivers nothing more, and releases the downstream")
    func cancelReleasesEverything() {
        let upstream = ControllablePublisher<Int, Never>()
        let other = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll(); other.detachAll() }
        var weakRecorder: Weak<RecordingSubscriber<Int, Never>>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = Weak(recorder)
            upstream.withLatestFrom(other).subscribe(recorder)
            _ = other.subscriptions[0].send(7)
            recorder.cancel()
            _ = upstream.subscriptions[0].send(1)
            #expect(recorder.values.isEmpty)
            #expect(upstream.subscriptions[0].cancelCount == 1)
            #expect(other.subscriptions[0].cancelCount == 1)
        }
        upstream.detachAll()
        other.detachAll()
        #expect(weakRecorder?.object == nil)
    }
}
