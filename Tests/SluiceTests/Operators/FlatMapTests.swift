import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

@Suite("flatMap: Publishers.FlatMap and its four overloads", .timeLimit(.minutes(12)))
struct FlatMapTests {
    @Test("an inner's subscriber reads as FlatMap and mirrors its parent's identifier (parentSubscription), as Combine's")
    func innerSubscriberReflection() throws {
        let outer = PassthroughSubject<Int, Never>()
        let inner = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        outer.flatMap { _ in inner }.subscribe(recorder)
        outer.send(1)
        let raw = try #require(inner.raw)
        #expect(String(describing: raw) == "FlatMap")
        #expect((raw as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "FlatMap")
        let mirror = try #require((raw as? any CustomReflectable)?.customMirror)
        let parent = try #require(recorder.subscription)
        #expect(mirror.children.map(\.label) == ["parentSubscription"])
        #expect(mirror.children.first?.value as? CombineIdentifier == parent.combineIdentifier)
        recorder.cancel()
        inner.subscriber = nil   // the inner publisher, which the transform holds, held flatMap's subscriber
        inner.raw = nil
    }

    /// An upstream of inner publishers that the test drives, and a flatMap of it. Going out of
    /// scope, it cancels its recorder and detaches its controllable publishers, whose
    /// subscriptions would otherwise keep the flatMap (and each other) alive.
    fileprivate final class Fixture {
        let upstream = ControllablePublisher<Int, Boom>()
        let inners = (0..<3).map { _ in ControllablePublisher<Int, Boom>() }
        let recorder: RecordingSubscriber<Int, Boom>

        init(maxPublishers: Subscribers.Demand = .unlimited, initialDemand: Subscribers.Demand = .unlimited) {
            recorder = RecordingSubscriber(initialDemand: initialDemand)
            let inners = self.inners
            upstream.flatMap(maxPublishers: maxPublishers) { inners[$0] }.subscribe(recorder)
        }

        deinit {
            recorder.cancel()
            upstream.detachAll()
            for inner in inners { inner.detachAll() }
        }

        var outer: ControllableSubscription<Int, Boom> { upstream.subscriptions[0] }
        func inner(_ index: Int) -> ControllableSubscription<Int, Boom> { inners[index].subscriptions[0] }

        /// The upstream sends inner publisher `index`; returns the demand flatMap answered.
        @discardableResult
        func open(_ index: Int) -> Subscribers.Demand { outer.send(index) }
    }

    @Test("the upstream is asked for maxPublishers at subscription, and for one more each time an inner finishes")
    func upstreamDemand() {
        let unlimited = Fixture()
        defer { unlimited.recorder.cancel() }
        #expect(unlimited.outer.requests == [.unlimited])
        #expect(unlimited.open(0) == .none, "an element is never answered with demand")
        unlimited.inner(0).send(completion: .finished)
        #expect(unlimited.outer.requests == [.unlimited], "unlimited: nothing more to ask")

        let two = Fixture(maxPublishers: .max(2))
        defer { two.recorder.cancel() }
        #expect(two.outer.requests == [.max(2)])
        two.open(0)
        two.open(1)
        #expect(two.outer.requests == [.max(2)])
        two.inner(1).send(completion: .finished)
        #expect(two.outer.requests == [.max(2), .max(1)], "a finished inner makes room for one more")
        two.open(2)
        two.inner(0).send(completion: .finished)
        #expect(two.outer.requests == [.max(2), .max(1), .max(1)])
        #expect(two.recorder.completion == nil)

        let none = Fixture(maxPublishers: .none)
        defer { none.recorder.cancel() }
        #expect(none.outer.requests == [.none], "maxPublishers .none is asked as .max(0), as Combine asks it")
    }

    @Test("with limited demand each inner is asked for one value at a time; one that arrives without demand waits, and its inner is asked again once it is delivered")
    func innerDemandLimited() {
        let fixture = Fixture(initialDemand: .max(2))
        defer { fixture.recorder.cancel() }
        fixture.open(0)
        fixture.open(1)
        #expect(fixture.inner(0).requests == [.max(1)] && fixture.inner(1).requests == [.max(1)])
        #expect(fixture.inner(0).send(10) == .max(1), "delivered: its inner may send the next")
        #expect(fixture.inner(0).send(11) == .max(1), "delivered with the last demand: still one more")
        #expect(fixture.inner(0).send(12) == .none, "no demand: it waits, and its inner is not asked again")
        #expect(fixture.inner(1).send(20) == .none)
        #expect(fixture.recorder.values == [10, 11])
        fixture.recorder.request(.max(1))
        #expect(fixture.recorder.values == [10, 11, 12], "waiting values go out in order of arrival")
        #expect(fixture.inner(0).requests == [.max(1), .max(1)] && fixture.inner(1).requests == [.max(1)])
        fixture.recorder.request(.max(5))
        #expect(fixture.recorder.values == [10, 11, 12, 20])
        #expect(fixture.inner(1).requests == [.max(1), .max(1)])
        #expect(fixture.inner(1).send(21) == .max(1))
        #expect(fixture.recorder.values == [10, 11, 12, 20, 21] && fixture.recorder.violations.isEmpty)
    }

    @Test("with unlimited demand inners are asked for .unlimited and values are answered with nothing more; a limited downstream turning unlimited asks every inner for .unlimited")
    func innerDemandUnlimited() {
        let unlimited = Fixture()
        defer { unlimited.recorder.cancel() }
        unlimited.open(0)
        #expect(unlimited.inner(0).requests == [.unlimited])
        #expect(unlimited.inner(0).send(1) == .none)

        let turning = Fixture(initialDemand: .none)
        defer { turning.recorder.cancel() }
        turning.open(0)
        turning.open(1)
        #expect(turning.inner(0).send(1) == .none)
        turning.recorder.request(.unlimited)
        #expect(turning.recorder.values == [1])
        #expect(turning.inner(0).requests == [.max(1), .unlimited] && turning.inner(1).requests == [.max(1), .unlimited])
        turning.open(2)
        #expect(turning.inner(2).requests == [.unlimited])
    }

    @Test("it finishes once the upstream and every inner have finished, after the values still waiting for demand")
    func completion() {
        let fixture = Fixture(initialDemand: .none)
        defer { fixture.recorder.cancel() }
        fixture.open(0)
        fixture.open(1)
        _ = fixture.inner(0).send(1)
        fixture.inner(0).send(completion: .finished)
        fixture.outer.send(completion: .finished)
        #expect(fixture.recorder.completion == nil, "inner 1 is still going")
        fixture.inner(1).send(completion: .finished)
        #expect(fixture.recorder.completion == nil, "a value still waits")
        fixture.recorder.request(.max(1))
        #expect(fixture.recorder.values == [1] && fixture.recorder.completion == .finished)

        let empty = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>().flatMap { Just($0) }.subscribe(empty)
        #expect(empty.completion == .finished, "no inner at all: it finishes with the upstream")
    }

    @Test("the upstream failing cancels every inner, drops waiting values and fails the stream")
    func upstreamFailure() {
        let fixture = Fixture(initialDemand: .none)
        defer { fixture.recorder.cancel() }
        fixture.open(0)
        fixture.open(1)
        _ = fixture.inner(0).send(1)
        fixture.outer.send(completion: .failure(Boom()))
        #expect(fixture.recorder.completion == .failure(Boom()))
        #expect(fixture.inner(0).cancelCount == 1 && fixture.inner(1).cancelCount == 1)
        #expect(fixture.outer.cancelCount == 0, "a completed upstream is not cancelled")
        fixture.recorder.request(.max(1))
        _ = fixture.inner(1).send(2)
        #expect(fixture.recorder.values.isEmpty && fixture.recorder.violations.isEmpty)
    }

    @Test("an inner failing cancels the other inners and the upstream and fails the stream")
    func innerFailure() {
        let fixture = Fixture()
        defer { fixture.recorder.cancel() }
        fixture.open(0)
        fixture.open(1)
        fixture.open(2)
        fixture.inner(1).send(completion: .failure(Boom()))
        #expect(fixture.recorder.completion == .failure(Boom()))
        #expect(fixture.inner(0).cancelCount == 1 && fixture.inner(2).cancelCount == 1)
        #expect(fixture.inner(1).cancelCount == 0 && fixture.outer.cancelCount == 1)
        fixture.inner(2).send(completion: .failure(Boom()))
        fixture.open(0)
        #expect(fixture.inners[0].subscriptions.count == 1, "no inner is made after the end")
        #expect(fixture.recorder.events.count == 2 && fixture.recorder.violations.isEmpty)
    }

    @Test("cancel cancels the upstream and every inner, and nothing reaches the downstream afterwards")
    func cancelReachesEverything() {
        let fixture = Fixture()
        fixture.open(0)
        fixture.open(1)
        fixture.recorder.cancel()
        #expect(fixture.outer.cancelCount == 1)
        #expect(fixture.inner(0).cancelCount == 1 && fixture.inner(1).cancelCount == 1)
        _ = fixture.inner(0).send(1)
        fixture.inner(1).send(completion: .finished)
        fixture.outer.send(completion: .finished)
        #expect(fixture.recorder.values.isEmpty && fixture.recorder.completion == nil && fixture.recorder.violations.isEmpty)
    }

    @Test("a request from inside receive delivers the next waiting value after it returns, not inside it")
    func reentrantRequest() {
        let fixture = Fixture(initialDemand: .none)
        defer { fixture.recorder.cancel() }
        fixture.open(0)
        fixture.open(1)
        _ = fixture.inner(0).send(1)
        _ = fixture.inner(1).send(2)
        fixture.recorder.onValue { [unowned recorder = fixture.recorder] _ in
            recorder.request(.max(1))
            return .none
        }
        fixture.recorder.request(.max(1))
        #expect(fixture.recorder.values == [1, 2])
        #expect(fixture.recorder.violations.isEmpty, "overlapping signals or values beyond demand")
    }

    @Test("an inner that sends while the downstream receives another's value: delivered after it, not inside it")
    func innerSendingDuringDelivery() {
        let first = PassthroughSubject<Int, Boom>(), second = PassthroughSubject<Int, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>(initialDemand: .max(2))
        defer { recorder.cancel() }
        [first, second].publisher.flatMap { $0 }.subscribe(recorder)
        recorder.onValue { value in
            if value == 1 { second.send(2) }
            return .none
        }
        first.send(1)
        #expect(recorder.values == [1, 2] && recorder.violations.isEmpty)
    }

    @Test("synchronous inners: Just and a sequence of 100,000 values, unlimited and one at a time, without deep recursion")
    func synchronousInners() {
        let count = 100_000
        let justs = RecordingSubscriber<Int, Never>()
        (0..<count).publisher.flatMap { Just($0) }.subscribe(justs)
        #expect(justs.valueCount == count && justs.completion == .finished)

        let oneAtATime = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (0..<count).publisher.flatMap(maxPublishers: .max(1)) { Just($0) }.subscribe(oneAtATime)
        #expect(oneAtATime.values == Array(0..<count) && oneAtATime.completion == .finished)

        let sequence = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        Just(count).flatMap { (0..<$0).publisher }.subscribe(sequence)
        #expect(sequence.values == Array(0..<count) && sequence.completion == .finished)

        // The downstream asks for the next value from inside receive: each comes from the
        // request loop, with the inner sending inside `request`.
        let reentrant = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        reentrant.onValue { [unowned reentrant] _ in
            reentrant.request(.max(1))
            return .none
        }
        Just(count).flatMap { (0..<$0).publisher }.subscribe(reentrant)
        #expect(reentrant.valueCount == count && reentrant.completion == .finished)
        #expect(reentrant.violations.isEmpty && sequence.violations.isEmpty && oneAtATime.violations.isEmpty)
    }

    /// The scalar path: with demand and nothing waiting, a `Just`'s value goes out at once and
    /// the upstream is asked (by a request, as Combine asks, not by the demand `receive(_:)`
    /// returns) for the one more element its finished inner makes room for;
    /// without demand the `Just` is subscribed and waits like any inner. The transform runs
    /// once per element either way.
    @Test("Just inners: delivered at once with demand (one more element asked for), waiting as inners without it")
    func justInners() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let transforms = Locked(0)
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        defer { recorder.cancel() }
        upstream.flatMap(maxPublishers: .max(2)) { value in
            transforms.withLock { $0 += 1 }
            return Just(value * 10)
        }.subscribe(recorder)
        let outer = upstream.subscriptions[0]
        #expect(outer.requests == [.max(2)])
        #expect(outer.send(1) == .none, "the next element is requested, not returned")
        #expect(outer.requests == [.max(2), .max(1)])
        #expect(outer.send(2) == .none)
        #expect(recorder.values == [10, 20])
        #expect(outer.send(3) == .none, "no demand: the Just is subscribed, its value waits")
        #expect(outer.send(4) == .none)
        #expect(outer.requests == [.max(2), .max(1), .max(1), .max(1), .max(1)], "each subscribed Just finished at once")
        recorder.request(.max(1))
        #expect(recorder.values == [10, 20, 30])
        recorder.request(.max(2))
        #expect(recorder.values == [10, 20, 30, 40])
        #expect(outer.requests.count == 5)
        #expect(outer.send(5) == .none, "demand left and nothing waiting: at once again")
        #expect(outer.requests.count == 6)
        #expect(recorder.values == [10, 20, 30, 40, 50])
        outer.send(completion: .finished)
        #expect(recorder.completion == .finished)
        #expect(transforms.withLock { $0 } == 5)
        #expect(recorder.violations.isEmpty)
    }

    @Test("Just inners with their failure type set take the same path; after cancel an element is ignored")
    func justInnersWithAFailureType() {
        let upstream = ControllablePublisher<Int, Boom>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Boom>()
        let flatMap: Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, Boom>, ControllablePublisher<Int, Boom>> =
            upstream.flatMap(maxPublishers: .max(1)) { Just($0) }
        flatMap.subscribe(recorder)
        let outer = upstream.subscriptions[0]
        #expect(outer.send(1) == .none)
        #expect(outer.requests == [.max(1), .max(1)])
        #expect(recorder.values == [1])
        recorder.cancel()
        #expect(outer.send(2) == .none)
        #expect(recorder.values == [1] && recorder.violations.isEmpty)
    }

    @Test("the four overloads have Combine's types and deliver the inners' values")
    func overloads() {
        let same: Publishers.FlatMap<Fail<Int, Boom>, Fail<Int, Boom>> = Fail<Int, Boom>(error: Boom()).flatMap { _ in Fail(error: Boom()) }
        let neverOuter: Publishers.FlatMap<Fail<Int, Boom>, Publishers.SetFailureType<Just<Int>, Boom>> =
            Just(1).flatMap { _ in Fail(outputType: Int.self, failure: Boom()) }
        let neverInner: Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, Boom>, Fail<Int, Boom>> =
            Fail<Int, Boom>(error: Boom()).flatMap { Just($0) }
        let neither: Publishers.FlatMap<Just<Int>, Just<Int>> = Just(2).flatMap(maxPublishers: .max(1)) { Just($0 * 10) }
        #expect(neither.maxPublishers == .max(1) && same.maxPublishers == .unlimited)

        let failing = RecordingSubscriber<Int, Boom>()
        neverOuter.subscribe(failing)
        #expect(failing.completion == .failure(Boom()))
        let retyped = RecordingSubscriber<Int, Boom>()
        (1...3).publisher.setFailureType(to: Boom.self).flatMap { Just($0) }.subscribe(retyped)
        #expect(retyped.values == [1, 2, 3] && retyped.completion == .finished)
        let upstreamFailing = RecordingSubscriber<Int, Boom>()
        neverInner.subscribe(upstreamFailing)
        #expect(upstreamFailing.completion == .failure(Boom()))
        let plain = RecordingSubscriber<Int, Never>()
        neither.subscribe(plain)
        #expect(plain.values == [20] && plain.completion == .finished)
    }

    @Test("the subscription and the inner subscribers describe themselves as Combine's: FlatMap")
    func descriptions() {
        let inner = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer {
            recorder.cancel()
            inner.detachAll()
        }
        Just(0).flatMap { _ in inner }.subscribe(recorder)
        let subscription = recorder.subscription
        #expect(subscription.map { String(describing: $0) } == "FlatMap")
        #expect(subscription.map { Mirror(reflecting: $0).children.isEmpty } == true, "\(subscription.map { Array(Mirror(reflecting: $0).children) } ?? [])")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "FlatMap")
    }

    @Test("inners sending on their own threads while the downstream requests: every value once, never beyond demand", arguments: [false, true])
    func racingInners(cancelling: Bool) {
        for _ in 0..<200 {
            let inners = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
            inners.publisher.flatMap { $0 }.subscribe(recorder)
            runConcurrently(threads: 4) { thread in
                guard thread < 3 else {
                    for _ in 0..<20 { recorder.request(.max(1)) }
                    if cancelling { recorder.cancel() }
                    return
                }
                for rank in 0..<50 { inners[thread].send(thread * 100 + rank) }
                inners[thread].send(completion: .finished)
            }
            let values = recorder.values
            #expect(Set(values).count == values.count, "a value twice")
            for sender in 0..<3 {
                let own = values.filter { $0 / 100 == sender }
                #expect(own == own.sorted(), "one inner's values out of order")
            }
            if !cancelling { #expect(recorder.completion == .finished) }
            #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(2))")
        }
    }
}

extension FlatMapTests {
    @Test(
        "an upstream that fails again from inside an inner's cancel, which its first failure caused, traps naming the rule, where Combine's flatMap deadlocks",
        .exitTest
    )
    func upstreamFailingAgainInsideTheCancelTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = HandingPublisher<Int, Boom>()
            let failAgain = Locked<(@Sendable () -> Void)?>(nil)
            let recorder = RecordingSubscriber<Int, Boom>()
            upstream.flatMap { _ in
                Empty<Int, Boom>(completeImmediately: false).handleEvents(receiveCancel: { failAgain.withLock { $0 }?() })
            }.subscribe(recorder)
            failAgain.withLock { $0 = { upstream.subscriber?.receive(completion: .failure(Boom())) } }
            upstream.subscriber?.receive(subscription: LoggingSubscription())
            _ = upstream.subscriber?.receive(1)
            upstream.subscriber?.receive(completion: .failure(Boom()))
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("FlatMap received a signal after its completion (rule 4)"))
        }
    }

    @Test("an upstream that fails again later, on another call, is ignored")
    func upstreamFailingAgainLaterIsIgnored() {
        let upstream = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>()
        upstream.flatMap { _ in Empty<Int, Boom>(completeImmediately: false) }.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(1)
        subscription.send(completion: .failure(Boom()))
        subscription.send(completion: .failure(Boom()))
        #expect(recorder.completion == .failure(Boom()))
    }
}
