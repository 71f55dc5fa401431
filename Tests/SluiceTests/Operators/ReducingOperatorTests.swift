import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}
private struct TestFailure: Error, Equatable {}

/// Subscribes a recorder with unlimited demand and returns it.
private func record<P: Publisher>(_ publisher: P) -> RecordingSubscriber<P.Output, P.Failure> {
    let recorder = RecordingSubscriber<P.Output, P.Failure>()
    publisher.subscribe(recorder)
    return recorder
}

@Suite("reduce, collect, count, min/max, contains, allSatisfy, first, last, ignoreOutput")
struct ReducingOperatorTests {
    @Test("each sends one value, then finishes, when the upstream finishes")
    func resultsAtTheEnd() {
        // Erased: `Publishers.Sequence`'s own overloads would compute these when called.
        let numbers = [3, 1, 4, 1, 5].publisher.eraseToAnyPublisher()
        #expect(record(numbers.reduce(0, +)).values == [14])
        #expect(record(numbers.collect()).values == [[3, 1, 4, 1, 5]])
        #expect(record(numbers.count()).values == [5])
        #expect(record(numbers.min()).values == [1])
        #expect(record(numbers.max()).values == [5])
        #expect(record(numbers.contains(4)).values == [true])
        #expect(record(numbers.contains(9)).values == [false])
        #expect(record(numbers.contains { $0 > 4 }).values == [true])
        #expect(record(numbers.allSatisfy { $0 > 0 }).values == [true])
        #expect(record(numbers.allSatisfy { $0 > 1 }).values == [false])
        #expect(record(numbers.first()).values == [3])
        #expect(record(numbers.first { $0 > 3 }).values == [4])
        #expect(record(numbers.last()).values == [5])
        #expect(record(numbers.last { $0 < 4 }).values == [1])
        let ignored = record(numbers.ignoreOutput())
        #expect(ignored.values.isEmpty)
        #expect(ignored.completion == .finished)
    }

    @Test("a reducer's subscription mirrors Combine's: downstream, result, initial and status, through the stream")
    func mirrorShowsCombinesChildren() throws {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        upstream.reduce(10, +).subscribe(recorder)
        let given = try #require(recorder.subscription)
        let subscription = try #require(given as? any CustomReflectable)
        func children() -> [String: String] {
            Dictionary(uniqueKeysWithValues: subscription.customMirror.children.map { ($0.label ?? "", String(describing: $0.value)) })
        }
        #expect(subscription.customMirror.children.map(\.label) == ["downstream", "result", "initial", "status"])
        #expect(children()["downstream"]?.contains("RecordingSubscriber") == true)
        #expect(children()["initial"] == "Optional(10)")
        #expect(children()["result"] == "nil")
        #expect(children()["status"]?.hasPrefix("subscribed(") == true)
        _ = upstream.subscriptions[0].send(5)
        upstream.subscriptions[0].send(completion: .finished)
        #expect(children()["result"] == "Optional(15)", "the result held for the downstream's first request")
        #expect(children()["status"] == "terminal")
        recorder.request(.max(1))
        #expect(recorder.values == [15])
        #expect(children()["downstream"] == "nil", "the downstream is let go at the end")
    }

    @Test("an upstream that finishes before any demand: the result waits for the first request, as in Combine")
    func resultWaitsForDemand() {
        let empty = Empty<Int, Never>()
        let reduced = RecordingSubscriber<Int, Never>(initialDemand: .none)
        empty.reduce(7, +).subscribe(reduced)
        let collected = RecordingSubscriber<[Int], Never>(initialDemand: .none)
        empty.collect().subscribe(collected)
        let counted = RecordingSubscriber<Int, Never>(initialDemand: .none)
        empty.count().subscribe(counted)
        #expect(reduced.values.isEmpty && reduced.completion == nil)
        #expect(collected.values.isEmpty && collected.completion == nil)
        #expect(counted.values.isEmpty && counted.completion == nil)
        reduced.request(.max(1))
        collected.request(.max(1))
        counted.request(.max(1))
        #expect(reduced.values == [7] && reduced.completion == .finished && reduced.violations.isEmpty)
        #expect(collected.values == [[]] && collected.completion == .finished && collected.violations.isEmpty)
        #expect(counted.values == [0] && counted.completion == .finished && counted.violations.isEmpty)
        // Without a value to send, the completion waits for a request too.
        let last = RecordingSubscriber<Int, Never>(initialDemand: .none)
        empty.last().subscribe(last)
        #expect(last.completion == nil)
        last.request(.max(1))
        #expect(last.values.isEmpty && last.completion == .finished && last.violations.isEmpty)
    }

    @Test("over no element: reduce sends its initial result, collect an empty array, count 0; first, last and min send nothing")
    func emptyUpstream() {
        let none = Empty<Int, Never>()
        #expect(record(none.reduce(7, +)).values == [7])
        #expect(record(none.collect()).values == [[]])
        #expect(record(none.count()).values == [0])
        for recorder in [record(none.first()), record(none.last()), record(none.min())] {
            #expect(recorder.values.isEmpty)
            #expect(recorder.completion == .finished)
        }
    }

    @Test("the upstream is asked for .unlimited once, right after the downstream has its subscription, whatever it asks")
    func demandUpstream() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        upstream.reduce(0, +).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.unlimited])
        #expect(recorder.subscription != nil)
        recorder.request(.max(1))
        recorder.request(.max(1))
        #expect(subscription.requests == [.unlimited])
        _ = subscription.send(2)
        _ = subscription.send(3)
        subscription.send(completion: .finished)
        #expect(recorder.values == [5])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("first, contains and allSatisfy finish early: the upstream is cancelled once and nothing follows")
    func earlyFinish() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.first().subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(8)
        _ = subscription.send(9)
        subscription.send(completion: .finished)
        #expect(recorder.values == [8])
        #expect(recorder.completion == .finished)
        #expect(subscription.cancelCount == 1)
        #expect(recorder.events.count == 3)
    }

    @Test("an upstream failure is passed on instead of the result; a try form passes it as any Error")
    func upstreamFailure() {
        let failing = Fail<Int, TestFailure>(error: TestFailure())
        #expect(record(failing.collect()).completion == .failure(TestFailure()))
        let tried = record(failing.tryReduce(0, +))
        guard case .failure(let error)? = tried.completion else { Issue.record("no failure"); return }
        #expect(error is TestFailure)
        #expect(tried.values.isEmpty)
    }

    @Test("every try form: a throw cancels the upstream and fails, with no result")
    func tryForms() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let throwing: @Sendable (Int) throws -> Bool = { if $0 == 2 { throw Boom() }; return false }
        let recorders: [RecordingSubscriber<Int, any Error>] = (0..<4).map { _ in RecordingSubscriber() }
        upstream.tryReduce(0) { total, value in if try throwing(value) { return 0 }; return total + value }.subscribe(recorders[0])
        upstream.tryMax { _, value in try throwing(value) }.subscribe(recorders[1])
        upstream.tryFirst(where: throwing).subscribe(recorders[2])
        upstream.tryLast(where: throwing).subscribe(recorders[3])
        let bools: [RecordingSubscriber<Bool, any Error>] = (0..<2).map { _ in RecordingSubscriber() }
        upstream.tryContains(where: throwing).subscribe(bools[0])
        upstream.tryAllSatisfy { try !throwing($0) }.subscribe(bools[1])
        for subscription in upstream.subscriptions {
            _ = subscription.send(1)
            _ = subscription.send(2)
            _ = subscription.send(3)
            subscription.send(completion: .finished)
            #expect(subscription.cancelCount == 1)
        }
        for recorder in recorders {
            #expect(recorder.values.isEmpty)
            guard case .failure(let error)? = recorder.completion else { Issue.record("no failure"); continue }
            #expect(error is Boom)
        }
        for recorder in bools {
            #expect(recorder.values.isEmpty)
            guard case .failure(let error)? = recorder.completion else { Issue.record("no failure"); continue }
            #expect(error is Boom)
        }
    }

    @Test("min and max keep the first of equal elements")
    func stableComparison() {
        let pairs = [(1, "a"), (3, "b"), (1, "c"), (3, "d")].publisher
        var results: [String] = []
        _ = pairs.min { $0.0 < $1.0 }.sink { results.append($0.1) }
        _ = pairs.max { $0.0 < $1.0 }.sink { results.append($0.1) }
        #expect(results == ["a", "b"])
    }

    @Test("a cancel before the end sends nothing and releases the downstream")
    func cancelBeforeEnd() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        weak var weakRecorder: RecordingSubscriber<[Int], Never>?
        do {
            let recorder = RecordingSubscriber<[Int], Never>()
            weakRecorder = recorder
            upstream.collect().subscribe(recorder)
            _ = upstream.subscriptions[0].send(1)
            recorder.subscription?.cancel()
            #expect(upstream.subscriptions[0].cancelCount == 1)
            upstream.subscriptions[0].send(completion: .finished)
            #expect(recorder.values.isEmpty)
        }
        #expect(weakRecorder == nil)
    }

    @Test("the subscription describes itself with Combine's operator name (first(where:)'s is \"TryFirst\", as in Combine)")
    func descriptions() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1].publisher.eraseToAnyPublisher().count().subscribe(recorder)
        let first = RecordingSubscriber<Int, Never>(initialDemand: .none)
        [1].publisher.eraseToAnyPublisher().first().subscribe(first)
        #expect(first.subscription.map { String(describing: $0) } == "First")
        first.cancel()
        let firstWhere = RecordingSubscriber<Int, Never>(initialDemand: .none)
        [1].publisher.eraseToAnyPublisher().first { $0 > 0 }.subscribe(firstWhere)
        #expect(firstWhere.subscription.map { String(describing: $0) } == "TryFirst")
        firstWhere.cancel()
    }

    @Test("a cancel before the upstream's subscription is ignored: the subscription that comes is taken and asked for .unlimited, as in Combine")
    func cancelBeforeSubscriptionIgnored() throws {
        let handing = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        handing.reduce(0, +).subscribe(recorder)
        // The operator's subscriber is also the subscription it hands down (Combine's shape).
        try #require(handing.raw as? any Subscription).cancel()
        let upstream = LoggingSubscription()
        try #require(handing.subscriber).receive(subscription: upstream)
        #expect(upstream.requests == [.unlimited] && upstream.cancelCount == 0)
        _ = handing.subscriber?.receive(4)
        handing.subscriber?.receive(completion: .finished)
        #expect(recorder.values == [4] && recorder.completion == .finished)
    }
}
