import Testing
import Sluice
import SluiceTesting

private struct Overflow: Error, Equatable {}
private struct Boom: Error, Equatable {}

private typealias Strategy = Publishers.BufferingStrategy<Overflow>

/// The three `whenFull` strategies, by name (a strategy with a closure is not Sendable).
enum WhenFull: String, CaseIterable, Sendable {
    case dropNewest, dropOldest, customError

    fileprivate var strategy: Strategy {
        switch self {
        case .dropNewest: .dropNewest
        case .dropOldest: .dropOldest
        case .customError: .customError { Overflow() }
        }
    }
}

/// Every prefetch and whenFull combination.
private let combinations: [(Publishers.PrefetchStrategy, WhenFull)] =
    [Publishers.PrefetchStrategy.keepFull, .byRequest].flatMap { prefetch in WhenFull.allCases.map { (prefetch, $0) } }

@Suite("buffer(size:prefetch:whenFull:)", .timeLimit(.minutes(12)))
struct BufferTests {
    @Test("its subscription mirrors Combine's: the values held, the upstream's state, the downstream's demand, the completion waiting")
    func mirror() throws {
        let upstream = ControllablePublisher<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        _ = upstream.subscriptions[0].send(1)
        _ = upstream.subscriptions[0].send(2)
        upstream.subscriptions[0].send(completion: .finished)
        let given = try #require(recorder.subscription)
        let children = Array(try #require(given as? any CustomReflectable).customMirror.children)
        #expect(children.map(\.label) == ["values", "state", "downstreamDemand", "terminal"])
        #expect(children[0].value as? [Int] == [1, 2])
        #expect(children[2].value as? Subscribers.Demand == Subscribers.Demand.none)
        #expect(String(describing: children[3].value).hasSuffix(".finished)"), "the finish waits behind the values")
    }

    // MARK: Demand

    @Test("keepFull asks the upstream for size at subscription, then one more per element the downstream takes")
    func keepFullPrefetchesAndTopsUp() {
        let upstream = ControllablePublisher<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(recorder.events.count == 1 && subscription.requests == [.max(3)])
        #expect(subscription.send(0) == .none && subscription.send(1) == .none && subscription.send(2) == .none)
        #expect(recorder.values.isEmpty, "no value without demand")
        recorder.request(.max(2))
        #expect(recorder.values == [0, 1])
        #expect(subscription.requests == [.max(3), .max(2)], "topped up by what left the buffer")
        #expect(subscription.send(3) == .none && subscription.send(4) == .none)
        recorder.request(.max(1))
        #expect(recorder.values == [0, 1, 2] && subscription.requests == [.max(3), .max(2), .max(1)])
        recorder.request(.max(3))
        #expect(recorder.values == [0, 1, 2, 3, 4], "the buffer is empty, one unit of demand left")
        #expect(subscription.send(5) == .max(1), "an element delivered at once is replaced at once")
        #expect(recorder.values == [0, 1, 2, 3, 4, 5] && recorder.violations.isEmpty)
    }

    @Test("keepFull counts the elements waiting for a busy deliverer: a sender inside receive is held to size")
    func keepFullHoldsSenderWhileDelivering() {
        let upstream = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        defer { upstream.detachAll() }
        upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        let source = Shared(DemandRespectingSender(upstream.subscriptions[0]))
        let sentWhileBusy = Locked(0)
        recorder.onValue { value in
            if value == 0 {
                recorder.request(.unlimited)
                source.value.send(upTo: 100)  // re-entrant: the buffer is delivering 0
                sentWhileBusy.withLock { $0 = source.value.sentCount }
            }
            return .none
        }
        source.value.send(upTo: 100)
        #expect(sentWhileBusy.withLock { $0 } == 5, "0, then four let in while 0 was out")
        #expect(recorder.values == Array(0..<100) && recorder.violations.isEmpty)
    }

    @Test("byRequest asks the upstream for .unlimited once, at subscription, and keeps what has no demand up to size")
    func byRequestAsksForEverything() {
        let upstream = ControllablePublisher<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.unlimited])
        for value in 0..<5 { #expect(subscription.send(value) == .none) }   // 3 and 4 dropped: full
        #expect(recorder.values.isEmpty)
        recorder.request(.max(2))
        #expect(recorder.values == [0, 1])
        recorder.request(.unlimited)
        #expect(subscription.send(5) == .none)
        #expect(recorder.values == [0, 1, 2, 5] && recorder.violations.isEmpty)
        #expect(subscription.requests == [.unlimited], "nothing more is ever requested")
    }

    @Test("byRequest of size .max in front of flatMap(maxPublishers: .max(1)) keeps a subject's burst, as in Combine")
    func byRequestKeepsABurstForASerialFlatMap() {
        let subject = PassthroughSubject<Int, Never>()
        let inners = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .unlimited)
        defer {
            recorder.cancel()
            inners.detachAll()   // the inners' subscriptions hold flatMap's subscribers
        }
        subject.buffer(size: .max, prefetch: .byRequest, whenFull: .dropNewest)
            .flatMap(maxPublishers: .max(1)) { _ in inners }
            .subscribe(recorder)
        for value in 0..<3 { subject.send(value) }     // one inner at a time: two wait in the buffer
        #expect(inners.subscriptions.count == 1)
        for index in 0..<3 {
            _ = inners.subscriptions[index].send(index * 10)
            inners.subscriptions[index].send(completion: .finished)
        }
        #expect(inners.subscriptions.count == 3)
        #expect(recorder.values == [0, 10, 20] && recorder.violations.isEmpty)
    }

    @Test("Elements that arrive while the downstream asks from inside receive keep their order, with a flat stack; byRequest over a synchronous publisher keeps only size of them, as Combine's (its .unlimited goes up before the downstream can ask)",
          arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
    func reentrantRequests(prefetch: Publishers.PrefetchStrategy) {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        recorder.onValue { _ in
            recorder.request(.max(1))
            return .none
        }
        (0..<100_000).publisher.buffer(size: 4, prefetch: prefetch, whenFull: .dropNewest).subscribe(recorder)
        #expect(recorder.values.count == (prefetch == .keepFull ? 100_000 : 4))
        #expect(recorder.values == Array(0..<recorder.values.count), "in order")
        #expect(recorder.completion == .finished && recorder.violations.isEmpty)
    }

    @Test("request(.none) is accepted and adds nothing, as in Combine")
    func zeroRequest() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        (0..<3).publisher.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        recorder.request(.none)
        #expect(recorder.values.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.values == [0])
    }

    @Test("The first upstream demand goes up before the downstream has its subscription, as in Combine",
          arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
    func firstDemandBeforeDownstreamSubscription(prefetch: Publishers.PrefetchStrategy) {
        let upstream = ControllablePublisher<Int, Overflow>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .max(1))
        defer { recorder.cancel() }
        let downstreamSubscribed = Locked<[Bool]>([])
        upstream.handleEvents(receiveRequest: { _ in downstreamSubscribed.withLock { $0.append(recorder.subscription != nil) } })
            .buffer(size: 3, prefetch: prefetch, whenFull: .dropNewest).subscribe(recorder)
        #expect(upstream.subscriptions[0].requests == [prefetch == .keepFull ? Subscribers.Demand.max(3) : .unlimited])
        #expect(downstreamSubscribed.withLock { $0 } == [false])
        #expect(upstream.subscriptions[0].send(1) == (prefetch == .keepFull ? .max(1) : .none))
        #expect(recorder.values == [1] && recorder.violations.isEmpty)
    }

    @Test("What the upstream sends inside the first request waits for the downstream's subscription",
          arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
    func signalsInsideTheFirstRequest(prefetch: Publishers.PrefetchStrategy) {
        let upstream = ControllablePublisher<Int, Overflow>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .max(1))
        upstream.handleEvents(receiveRequest: { _ in
            _ = upstream.subscriptions[0].send(1)
            upstream.subscriptions[0].send(completion: .failure(Overflow()))
        }).buffer(size: 2, prefetch: prefetch, whenFull: .dropNewest).subscribe(recorder)
        #expect(recorder.events.count == 2 && recorder.completion == .failure(Overflow()), "no demand yet for 1")
        #expect(recorder.violations.isEmpty)
        let sequence = RecordingSubscriber<Int, Overflow>(initialDemand: .max(2))
        defer { sequence.cancel() }
        (1...3).publisher.setFailureType(to: Overflow.self).buffer(size: 5, prefetch: prefetch, whenFull: .dropNewest)
            .subscribe(sequence)
        #expect(sequence.values == [1, 2] && sequence.completion == nil, "asked for inside receive(subscription:)")
        sequence.request(.max(1))
        #expect(sequence.values == [1, 2, 3] && sequence.completion == .finished && sequence.violations.isEmpty)
    }

    @Test("Before its upstream subscription the buffer ignores a value, a completion, a request and a cancel, as in Combine")
    func earlySignalsIgnored() throws {
        let late = LatePublisher<Int, Overflow>()
        defer { late.inner.detachAll() }
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .max(5))
        defer { recorder.cancel() }
        late.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        let waiting = try #require(late.waitingSubscribers.first)
        let subscriber = waiting.erased
        #expect(subscriber.receive(1) == .none)
        subscriber.receive(completion: .finished)
        let buffer = try #require(waiting.raw as? any Subscription)
        buffer.request(.max(3))
        buffer.cancel()
        #expect(recorder.events.isEmpty)
        late.release()
        let upstream = late.inner.subscriptions[0]
        #expect(upstream.history == [.request(.max(2))], "the cancel before the subscription was ignored")
        #expect(recorder.events.count == 1 && recorder.completion == nil)
        #expect(upstream.send(7) == .max(1) && recorder.values == [7], "the request before the subscription added nothing")
        recorder.cancel()
        #expect(upstream.cancelCount == 1 && recorder.violations.isEmpty)
    }

    @Test("keepFull: an element delivered inside receive is replaced by the demand receive returns, also when the downstream requests inside it, as in Combine")
    func keepFullReplacesThroughReceive() {
        let upstream = ControllablePublisher<Int, Overflow>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .max(3))
        defer { recorder.cancel() }
        recorder.onValue { _ in
            recorder.request(.max(1))
            return .none
        }
        upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        for value in 0..<10 { #expect(subscription.send(value) == .max(1)) }
        #expect(recorder.values == Array(0..<10) && subscription.requests == [.max(5)])
        #expect(recorder.violations.isEmpty)
    }

    // MARK: When full

    @Test("An element beyond size and demand follows whenFull", arguments: combinations)
    func whenFullStrategies(prefetch: Publishers.PrefetchStrategy, whenFull: WhenFull) {
        let upstream = ControllablePublisher<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.buffer(size: 3, prefetch: prefetch, whenFull: whenFull.strategy).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        for value in 1...5 { _ = subscription.send(value) }  // beyond demand for any prefetch
        switch whenFull {
        case .customError:
            #expect(recorder.values.isEmpty && recorder.completion == nil,
                    "the failure waits for the next request, as in Combine")
            #expect(subscription.cancelCount == 1)
        case .dropNewest, .dropOldest:
            #expect(recorder.completion == nil && subscription.cancelCount == 0)
        }
        recorder.request(.max(5))
        switch whenFull {
        case .dropNewest: #expect(recorder.values == [1, 2, 3])
        case .dropOldest: #expect(recorder.values == [3, 4, 5])
        case .customError: #expect(recorder.values == [1, 2, 3] && recorder.completion == .failure(Overflow()))
        }
        #expect(recorder.violations.isEmpty)
    }

    @Test("customError makes its error once, the upstream's later signals are ignored, and the failure goes out at the next request, request(.none) included")
    func customErrorOnce() {
        let upstream = ControllablePublisher<Int, Overflow>()
        let made = Locked(0)
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .max(1))
        defer { recorder.cancel() }
        upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .customError {
            made.withLock { $0 += 1 }
            return Overflow()
        }).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        for value in 0..<4 { _ = subscription.send(value) }
        subscription.send(completion: .finished)
        #expect(recorder.values == [0] && recorder.completion == nil, "held until the next request, as in Combine")
        #expect(made.withLock { $0 } == 1 && subscription.cancelCount == 1)
        recorder.request(.none)
        #expect(recorder.values == [0] && recorder.completion == .failure(Overflow()), "1 is dropped: no demand")
        #expect(made.withLock { $0 } == 1 && subscription.cancelCount == 1 && recorder.violations.isEmpty)
    }

    @Test("a buffer of size 0 holds nothing, so every element does not fit, even with demand, as in Combine: dropped, or customError's failure")
    func sizeZeroFitsNothing() {
        for whenFull in WhenFull.allCases {
            let upstream = ControllablePublisher<Int, Overflow>()
            let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .max(2))
            defer { recorder.cancel() }
            upstream.buffer(size: 0, prefetch: .byRequest, whenFull: whenFull.strategy).subscribe(recorder)
            _ = upstream.subscriptions[0].send(1)
            recorder.request(.max(1))
            #expect(recorder.values.isEmpty, "\(whenFull)")
            #expect(recorder.completion == (whenFull == .customError ? .failure(Overflow()) : nil), "\(whenFull)")
        }
    }

    @Test(
        "an element the upstream sends from inside customError's closure, on its thread, traps naming rule 7, where Combine's buffer deadlocks",
        .exitTest
    )
    func elementInsideCustomErrorTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ControllablePublisher<Int, Overflow>()
            let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .none)
            upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .customError {
                _ = upstream.subscriptions[0].send(1000)
                return Overflow()
            }).subscribe(recorder)
            _ = upstream.subscriptions[0].send(1)
            _ = upstream.subscriptions[0].send(2)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("received an element from inside its customError closure (rule 7)"))
        }
    }

    // MARK: Completion

    /// A buffer of 3 given 1 and 2 without demand, then `completion`.
    private static func twoBufferedThen(
        _ completion: Subscribers.Completion<Overflow>, prefetch: Publishers.PrefetchStrategy, whenFull: WhenFull
    ) -> RecordingSubscriber<Int, Overflow> {
        let upstream = ControllablePublisher<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .none)
        upstream.buffer(size: 3, prefetch: prefetch, whenFull: whenFull.strategy).subscribe(recorder)
        _ = upstream.subscriptions[0].send(1)
        _ = upstream.subscriptions[0].send(2)
        upstream.subscriptions[0].send(completion: completion)
        return recorder
    }

    @Test(".finished comes after the buffered elements, as demand takes them out", arguments: combinations)
    func finishedAfterBuffer(prefetch: Publishers.PrefetchStrategy, whenFull: WhenFull) {
        let recorder = Self.twoBufferedThen(.finished, prefetch: prefetch, whenFull: whenFull)
        defer { recorder.cancel() }
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1] && recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2] && recorder.completion == .finished && recorder.violations.isEmpty)
    }

    @Test(".finished with an empty buffer goes out at once, without demand (Combine waits for a request)")
    func finishedAtOnceWhenEmpty() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        subject.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        subject.send(completion: .finished)
        #expect(recorder.completion == .finished)
    }

    @Test("A failure comes at once, dropping what the downstream has no demand for", arguments: combinations)
    func failureAtOnce(prefetch: Publishers.PrefetchStrategy, whenFull: WhenFull) {
        let recorder = Self.twoBufferedThen(.failure(Overflow()), prefetch: prefetch, whenFull: whenFull)
        defer { recorder.cancel() }
        #expect(recorder.values.isEmpty && recorder.completion == .failure(Overflow()))
        recorder.request(.max(2))
        #expect(recorder.values.isEmpty && recorder.violations.isEmpty)
    }

    @Test("A failure during a delivery comes after the elements already requested (Combine delivers them after it)")
    func failureDuringDelivery() {
        let upstream = ControllablePublisher<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
        let subscription = Shared(upstream.subscriptions[0])
        for value in 1...5 { _ = subscription.value.send(value) }
        recorder.onValue { value in
            if value == 1 { subscription.value.send(completion: .failure(Overflow())) }
            return .none
        }
        recorder.request(.max(3))
        #expect(recorder.values == [1, 2, 3] && recorder.completion == .failure(Overflow()))
        #expect(recorder.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test("Cancel before any demand cancels the upstream once and delivers nothing more")
    func cancelBeforeDemand() {
        let upstream = ControllablePublisher<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        _ = upstream.subscriptions[0].send(1)
        recorder.cancel()
        recorder.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        _ = upstream.subscriptions[0].send(2)
        upstream.subscriptions[0].send(completion: .finished)
        recorder.request(.max(2))
        #expect(recorder.events.count == 1 && recorder.violations.isEmpty)
        upstream.detachAll()
    }

    @Test("Cancel inside receive stops the delivery of the buffered elements and of the completion")
    func cancelDuringDelivery() {
        let upstream = ControllablePublisher<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        for value in 1...4 { _ = upstream.subscriptions[0].send(value) }
        upstream.subscriptions[0].send(completion: .finished)
        recorder.onValue { value in
            if value == 2 { recorder.cancel() }
            return .none
        }
        recorder.request(.unlimited)
        #expect(recorder.values == [1, 2] && recorder.completion == nil && recorder.violations.isEmpty)
        upstream.detachAll()
    }

    @Test("After a cancel the subscription lets go of the downstream and the upstream", arguments: [true, false])
    func releaseAfterCancel(keepFull: Bool) {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        weak var weakUpstream: ControllablePublisher<Int, Never>?
        do {
            let upstream = ControllablePublisher<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
            defer { recorder.cancel() }
            weakRecorder = recorder
            weakUpstream = upstream
            upstream.buffer(size: 2, prefetch: keepFull ? .keepFull : .byRequest, whenFull: .dropOldest).subscribe(recorder)
            _ = upstream.subscriptions[0].send(1)
            _ = upstream.subscriptions[0].send(2)
            recorder.cancel()
            upstream.detachAll()
        }
        #expect(weakRecorder == nil && weakUpstream == nil)
    }

    @Test("After the completion the subscription lets go of the downstream")
    func releaseAfterCompletion() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            defer { recorder.cancel() }
            weakRecorder = recorder
            (0..<10).publisher.buffer(size: 2, prefetch: .keepFull, whenFull: .dropOldest).subscribe(recorder)
            #expect(recorder.values == Array(0..<10) && recorder.completion == .finished)
        }
        #expect(weakRecorder == nil)
    }

    // MARK: Threads

    @Test("The upstream sending on one thread while the downstream requests on another: every element once, in order, one signal at a time", arguments: 0..<50)
    func sendRacingRequests(round: Int) {
        let count = 500
        let upstream = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        defer { upstream.detachAll() }
        upstream.buffer(size: count, prefetch: .byRequest, whenFull: .customError { fatalError("never full") }).subscribe(recorder)
        let subscription = Shared(upstream.subscriptions[0])
        runConcurrently(threads: 2) { thread in
            if thread == 0 {
                for value in 0..<count { _ = subscription.value.send(value) }
                subscription.value.send(completion: .finished)
            } else {
                for _ in 0..<count { recorder.request(.max(1)) }
            }
        }
        #expect(recorder.values == Array(0..<count))
        #expect(recorder.completion == .finished && recorder.violations.isEmpty)
    }

    @Test("keepFull over a subject sent to on one thread while the downstream requests on another: an increasing run, never beyond demand", arguments: 0..<50)
    func keepFullRacingSubject(round: Int) {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        subject.buffer(size: 8, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        runConcurrently(threads: 2) { thread in
            if thread == 0 {
                for value in 0..<500 { subject.send(value) }
            } else {
                for _ in 0..<200 { recorder.request(.max(1)) }
            }
        }
        let values = recorder.values
        #expect(values.count <= 200 && values == values.sorted() && Set(values).count == values.count)
        #expect(values.prefix(8) == ArraySlice(0..<8), "the first size elements are always kept")
        #expect(recorder.violations.isEmpty)
    }
}

/// The document scenario "buffer handling a fast source": 10,000 values sent synchronously into
/// a slow consumer that has asked for 10, with a buffer of 100. Which values survive depends on
/// whether the source waits for demand, and, when it does not, on `whenFull`.
@Suite("buffer handling a fast source", .timeLimit(.minutes(12)))
struct BufferFastSourceScenario {
    static let total = 10_000

    @Test("A source that sends without waiting for demand: whenFull decides what survives", arguments: WhenFull.allCases)
    func sourceIgnoringDemand(whenFull: WhenFull) {
        let upstream = ControllablePublisher<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .max(10))
        defer { recorder.cancel() }
        defer { upstream.detachAll() }
        upstream.buffer(size: 100, prefetch: .byRequest, whenFull: whenFull.strategy).subscribe(recorder)
        for value in 0..<Self.total { _ = upstream.subscriptions[0].send(value) }
        upstream.subscriptions[0].send(completion: .finished)
        recorder.request(.unlimited)
        switch whenFull {
        case .dropNewest:
            #expect(recorder.values == Array(0..<110) && recorder.completion == .finished)
        case .dropOldest:
            #expect(recorder.values == Array(0..<10) + Array(9_900..<10_000) && recorder.completion == .finished)
        case .customError:   // the failure waits for the request, after the buffered values, as in Combine
            #expect(recorder.values == Array(0..<110) && recorder.completion == .failure(Overflow()))
        }
        #expect(recorder.violations.isEmpty)
    }

    @Test("A source that waits for demand, with keepFull: every value survives, and the source runs at most size ahead", arguments: WhenFull.allCases)
    func sourceHonouringDemand(whenFull: WhenFull) {
        let emitted = Locked(0)
        let mostAhead = Locked(0)
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .max(10))
        defer { recorder.cancel() }
        (0..<Self.total).publisher.setFailureType(to: Overflow.self)
            .handleEvents(receiveOutput: { _ in
                let ahead = emitted.withLock { $0 += 1; return $0 } - recorder.valueCount
                mostAhead.withLock { $0 = max($0, ahead) }
            })
            .buffer(size: 100, prefetch: .keepFull, whenFull: whenFull.strategy)
            .subscribe(recorder)
        #expect(recorder.values == Array(0..<10) && emitted.withLock { $0 } == 110, "10 delivered, 100 waiting")
        recorder.request(.unlimited)
        #expect(recorder.values == Array(0..<Self.total) && recorder.completion == .finished)
        #expect(mostAhead.withLock { $0 } <= 101, "size waiting, and the one being delivered")
        #expect(recorder.violations.isEmpty)
    }

    @Test("A subject sent to faster than the consumer asks, with keepFull: the subject drops what the buffer did not ask for, whatever whenFull says", arguments: WhenFull.allCases)
    func subjectWithKeepFull(whenFull: WhenFull) {
        let subject = PassthroughSubject<Int, Overflow>()
        let recorder = RecordingSubscriber<Int, Overflow>(initialDemand: .max(10))
        defer { recorder.cancel() }
        subject.buffer(size: 100, prefetch: .keepFull, whenFull: whenFull.strategy).subscribe(recorder)
        for value in 0..<Self.total { subject.send(value) }
        subject.send(completion: .finished)
        recorder.request(.unlimited)
        #expect(recorder.values == Array(0..<110) && recorder.completion == .finished && recorder.violations.isEmpty)
    }
}

/// Sends 0, 1, 2, … through a controllable subscription while the demand it requested or
/// returned allows, as a well-behaved synchronous publisher would (without a trampoline: a
/// send from inside the subscriber's `receive` reaches it at once).
private final class DemandRespectingSender {
    private let subscription: ControllableSubscription<Int, Never>
    private let sent = Locked(0)
    private let returned = Locked(Subscribers.Demand.none)

    init(_ subscription: ControllableSubscription<Int, Never>) { self.subscription = subscription }

    var sentCount: Int { sent.withLock { $0 } }

    func send(upTo end: Int) {
        while true {
            let next = sent.withLock { $0 }
            guard next < end, subscription.requestedDemand + returned.withLock({ $0 }) > next else { return }
            sent.withLock { $0 += 1 }
            let more = subscription.send(next)
            returned.withLock { $0 += more }
        }
    }
}

