import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

@Suite("switchToLatest: Publishers.SwitchToLatest and its four overloads", .timeLimit(.minutes(12)))
struct SwitchToLatestTests {
    /// An upstream of inner publishers that the test drives, and its switchToLatest.
    fileprivate struct Fixture {
        let upstream = ControllablePublisher<ControllablePublisher<Int, Boom>, Boom>()
        let inners = (0..<3).map { _ in ControllablePublisher<Int, Boom>() }
        let recorder: RecordingSubscriber<Int, Boom>

        init(initialDemand: Subscribers.Demand = .unlimited) {
            recorder = RecordingSubscriber(initialDemand: initialDemand)
            upstream.switchToLatest().subscribe(recorder)
        }

        var outer: ControllableSubscription<ControllablePublisher<Int, Boom>, Boom> { upstream.subscriptions[0] }
        func inner(_ index: Int) -> ControllableSubscription<Int, Boom> { inners[index].subscriptions[0] }

        /// The upstream sends inner publisher `index`.
        func open(_ index: Int) { #expect(outer.send(inners[index]) == .none) }
    }

    @Test("the upstream is asked for .unlimited; each inner for the demand not yet met, then for every request, and gets back the demand returned from its values")
    func demand() {
        let fixture = Fixture(initialDemand: .max(3))
        defer { fixture.recorder.cancel() }
        #expect(fixture.outer.requests == [.unlimited])
        fixture.open(0)
        #expect(fixture.inner(0).requests == [.max(3)])
        #expect(fixture.inner(0).send(1) == .none)
        fixture.recorder.demandPerValue = .max(2)
        #expect(fixture.inner(0).send(2) == .max(2), "the downstream's answer goes back to the inner")
        fixture.recorder.request(.max(4))
        #expect(fixture.inner(0).requests == [.max(3), .max(4)])
        fixture.open(1)
        #expect(fixture.inner(1).requests == [.max(7)], "3 + 2 + 4 asked, 2 delivered: the rest carries over")
        #expect(fixture.recorder.values == [1, 2] && fixture.recorder.violations.isEmpty)

        let none = Fixture(initialDemand: .none)
        defer { none.recorder.cancel() }
        none.open(0)
        #expect(none.inner(0).requests.isEmpty, "no demand yet: nothing asked")
        none.recorder.request(.max(1))
        #expect(none.inner(0).requests == [.max(1)])
    }

    @Test("a new inner cancels the previous one before it is subscribed; values the previous one sends later are dropped")
    func switchCancelsFirst() {
        let log = Locked<[String]>([])
        let subject = PassthroughSubject<Int, Never>()
        let inners = (0..<2).map { index in
            ControllablePublisher<Int, Never>().handleEvents(
                receiveSubscription: { _ in log.withLock { $0.append("subscribe \(index)") } },
                receiveCancel: { log.withLock { $0.append("cancel \(index)") } })
        }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        subject.map { inners[$0] }.switchToLatest().subscribe(recorder)
        subject.send(0)
        subject.send(1)
        #expect(log.withLock { $0 } == ["subscribe 0", "cancel 0", "subscribe 1"])

        let fixture = Fixture()
        defer { fixture.recorder.cancel() }
        fixture.open(0)
        _ = fixture.inner(0).send(1)
        fixture.open(1)
        #expect(fixture.inner(0).cancelCount == 1)
        #expect(fixture.inner(0).send(2) == .none)
        fixture.inner(0).send(completion: .failure(Boom()))
        _ = fixture.inner(1).send(3)
        #expect(fixture.recorder.values == [1, 3] && fixture.recorder.completion == nil)
    }

    @Test("it finishes once the upstream and the current inner have finished, in either order")
    func completion() {
        let innerLast = Fixture()
        defer { innerLast.recorder.cancel() }
        innerLast.open(0)
        innerLast.outer.send(completion: .finished)
        #expect(innerLast.recorder.completion == nil)
        innerLast.inner(0).send(completion: .finished)
        #expect(innerLast.recorder.completion == .finished)

        let upstreamLast = Fixture()
        defer { upstreamLast.recorder.cancel() }
        upstreamLast.open(0)
        upstreamLast.inner(0).send(completion: .finished)
        #expect(upstreamLast.recorder.completion == nil, "the upstream may send another")
        upstreamLast.outer.send(completion: .finished)
        #expect(upstreamLast.recorder.completion == .finished)

        let noInner = RecordingSubscriber<Int, Never>()
        Empty<Just<Int>, Never>().switchToLatest().subscribe(noInner)
        #expect(noInner.completion == .finished)
    }

    @Test("a failure of the inner cancels the upstream, one of the upstream cancels the inner; either fails the stream")
    func failures() {
        let inner = Fixture()
        defer { inner.recorder.cancel() }
        inner.open(0)
        inner.inner(0).send(completion: .failure(Boom()))
        #expect(inner.recorder.completion == .failure(Boom()) && inner.outer.cancelCount == 1)

        let upstream = Fixture()
        defer { upstream.recorder.cancel() }
        upstream.open(0)
        upstream.outer.send(completion: .failure(Boom()))
        #expect(upstream.recorder.completion == .failure(Boom()) && upstream.inner(0).cancelCount == 1)
        _ = upstream.inner(0).send(1)
        #expect(upstream.recorder.values.isEmpty && upstream.recorder.violations.isEmpty)
    }

    @Test("cancel cancels the upstream and the current inner, and nothing reaches the downstream afterwards")
    func cancelReachesBoth() {
        let fixture = Fixture()
        fixture.open(0)
        fixture.recorder.cancel()
        #expect(fixture.outer.cancelCount == 1 && fixture.inner(0).cancelCount == 1)
        _ = fixture.inner(0).send(1)
        fixture.inner(0).send(completion: .finished)
        fixture.outer.send(completion: .finished)
        #expect(fixture.recorder.values.isEmpty && fixture.recorder.completion == nil)
    }

    @Test("cancel cancels the current inner before the upstream, in Combine's order")
    func cancelOrder() {
        let log = Locked<[String]>([])
        let inner = PassthroughSubject<Int, Never>().handleEvents(receiveCancel: { log.withLock { $0.append("inner") } })
        let upstream = PassthroughSubject<Publishers.HandleEvents<PassthroughSubject<Int, Never>>, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.handleEvents(receiveCancel: { log.withLock { $0.append("upstream") } }).switchToLatest().subscribe(recorder)
        upstream.send(inner)
        recorder.cancel()
        #expect(log.withLock { $0 } == ["inner", "upstream"])
    }

    @Test("synchronous inners: 100,000 Justs, and a sequence of 100,000 values one at a time, without deep recursion")
    func synchronousInners() {
        let count = 100_000
        let justs = RecordingSubscriber<Int, Never>()
        (0..<count).publisher.map { Just($0) }.switchToLatest().subscribe(justs)
        #expect(justs.valueCount == count && justs.completion == .finished)

        let sequence = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        Just(count).map { (0..<$0).publisher }.switchToLatest().subscribe(sequence)
        #expect(sequence.values == Array(0..<count) && sequence.completion == .finished)

        let reentrant = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        reentrant.onValue { [unowned reentrant] _ in
            reentrant.request(.max(1))
            return .none
        }
        Just(count).map { (0..<$0).publisher }.switchToLatest().subscribe(reentrant)
        #expect(reentrant.valueCount == count && reentrant.completion == .finished && reentrant.violations.isEmpty)
    }

    @Test("the four overloads have Combine's types and deliver the latest inner's values")
    func overloads() {
        let same: Publishers.SwitchToLatest<Fail<Int, Boom>, Fail<Fail<Int, Boom>, Boom>> =
            Fail<Fail<Int, Boom>, Boom>(error: Boom()).switchToLatest()
        let neverOuter: Publishers.SwitchToLatest<Fail<Int, Boom>, Publishers.SetFailureType<Just<Fail<Int, Boom>>, Boom>> =
            Just(Fail<Int, Boom>(error: Boom())).switchToLatest()
        let neither: Publishers.SwitchToLatest<Just<Int>, Just<Just<Int>>> = Just(Just(1)).switchToLatest()
        let neverInner: Publishers.SwitchToLatest<
            Publishers.SetFailureType<Just<Int>, Boom>, Publishers.Map<Fail<Just<Int>, Boom>, Publishers.SetFailureType<Just<Int>, Boom>>
        > = Fail<Just<Int>, Boom>(error: Boom()).switchToLatest()

        let recorders = (0..<4).map { _ in RecordingSubscriber<Int, Boom>() }
        same.subscribe(recorders[0])
        neverOuter.subscribe(recorders[1])
        neither.setFailureType(to: Boom.self).subscribe(recorders[2])
        neverInner.subscribe(recorders[3])
        #expect(recorders.map(\.completion) == [.failure(Boom()), .failure(Boom()), .finished, .failure(Boom())])
        #expect(recorders[2].values == [1])
    }

    @Test("the subscription describes itself as Combine's: SwitchToLatest")
    func descriptions() {
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        PassthroughSubject<Just<Int>, Never>().switchToLatest().subscribe(recorder)
        let subscription = recorder.subscription
        #expect(subscription.map { String(describing: $0) } == "SwitchToLatest")
        #expect(subscription.map { Mirror(reflecting: $0).children.isEmpty } == true)
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "SwitchToLatest")
    }

    @Test("inners sending on their own threads while the upstream switches and the downstream requests: no value of an earlier inner after a later one's, none twice, never beyond demand")
    func racingSwitches() {
        for _ in 0..<200 {
            let inners = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
            let upstream = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
            upstream.map { inners[$0] }.switchToLatest().subscribe(recorder)
            upstream.send(0)
            runConcurrently(threads: 4) { thread in
                guard thread < 3 else {
                    upstream.send(1)
                    for _ in 0..<10 { recorder.request(.max(1)) }
                    upstream.send(2)
                    return
                }
                for rank in 0..<50 { inners[thread].send(thread * 100 + rank) }
            }
            inners[2].send(completion: .finished)
            upstream.send(completion: .finished)
            let values = recorder.values
            #expect(values == values.sorted(), "a value of an earlier inner after a later one's, or out of order: \(values)")
            #expect(Set(values).count == values.count)
            #expect(recorder.completion == .finished)
            #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(2))")
        }
    }
}

extension SwitchToLatestTests {
    /// switchToLatest over an upstream of ``HandingPublisher``s, whose subscribers the test calls.
    private static func handing(initialDemand: Subscribers.Demand) -> (
        upstream: ControllablePublisher<HandingPublisher<Int, Boom>, Boom>, recorder: RecordingSubscriber<Int, Boom>
    ) {
        let upstream = ControllablePublisher<HandingPublisher<Int, Boom>, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>(initialDemand: initialDemand)
        upstream.switchToLatest().subscribe(recorder)
        return (upstream, recorder)
    }

    @Test("the current inner sending a value it was not asked for traps naming rule 2, as Combine's does", .exitTest)
    func innerValueBeyondDemandTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (upstream, _) = SwitchToLatestTests.handing(initialDemand: .none)
            let inner = HandingPublisher<Int, Boom>()
            _ = upstream.subscriptions[0].send(inner)
            inner.subscriber?.receive(subscription: LoggingSubscription())
            _ = inner.subscriber?.receive(1)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("SwitchToLatest received a value beyond the demand it requested (rule 2)"))
        }
    }

    @Test(
        "the current inner completing before its subscription traps naming rule 1, finished or failed, as Combine's does",
        .exitTest
    )
    func innerCompletionBeforeSubscriptionTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (upstream, _) = SwitchToLatestTests.handing(initialDemand: .unlimited)
            let inner = HandingPublisher<Int, Boom>()
            _ = upstream.subscriptions[0].send(inner)
            inner.subscriber?.receive(completion: .finished)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("SwitchToLatest received a signal before its subscription (rule 1)"))
        }
        await #expect(processExitsWith: .failure) {
            let (upstream, _) = SwitchToLatestTests.handing(initialDemand: .unlimited)
            let inner = HandingPublisher<Int, Boom>()
            _ = upstream.subscriptions[0].send(inner)
            inner.subscriber?.receive(completion: .failure(Boom()))
        }
    }

    @Test("a value the current inner sends before its subscription, with demand, is delivered, as Combine's is")
    func innerValueBeforeSubscriptionWithDemand() {
        let (upstream, recorder) = Self.handing(initialDemand: .unlimited)
        defer { recorder.cancel() }
        let inner = HandingPublisher<Int, Boom>()
        _ = upstream.subscriptions[0].send(inner)
        _ = inner.subscriber?.receive(1)
        #expect(recorder.values == [1] && recorder.violations.isEmpty)
    }

    @Test("a second subscription from the current inner is cancelled; one from the inner that finished last is left alone, as Combine leaves it")
    func subscriptionsAfterTheFirst() throws {
        let (upstream, recorder) = Self.handing(initialDemand: .none)
        defer { recorder.cancel() }
        let inner = HandingPublisher<Int, Boom>()
        _ = upstream.subscriptions[0].send(inner)
        let subscriber = try #require(inner.subscriber)
        let first = LoggingSubscription(), second = LoggingSubscription(), late = LoggingSubscription()
        subscriber.receive(subscription: first)
        subscriber.receive(subscription: second)
        #expect(first.cancelCount == 0 && second.cancelCount == 1)
        subscriber.receive(completion: .finished)
        subscriber.receive(subscription: late)
        #expect(late.cancelCount == 0 && late.requests.isEmpty)
        #expect(first.cancelCount == 0, "a finished inner is not cancelled")
    }
}
