import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

/// One gate per value, and a record of which runs started and which saw cancellation.
private final class Runs: Sendable {
    let gates: [Gate]
    private let log = Locked<(started: [Int], cancelled: [Int], finished: Int)>(([], [], 0))

    init(_ count: Int) { gates = (0..<count).map { _ in Gate() } }

    var started: [Int] { log.withLock { $0.started } }
    var cancelled: [Int] { log.withLock { $0.cancelled } }

    /// The transform: waits for the value's gate (or a cancel), then returns value × 10.
    func run(_ value: Int) async -> Int {
        log.withLock { $0.started.append(value) }
        await gates[value].waitUnlessCancelled()
        log.withLock { log in
            if Task.isCancelled { log.cancelled.append(value) }
            log.finished += 1
        }
        return value * 10
    }

    func waitUntilStarted(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        while log.withLock({ $0.started.count }) < count && !Task.isCancelled { await Task.yield() }
        let reached = log.withLock { $0.started.count }
        #expect(reached >= count, "cancelled while waiting for \(count) transforms started; \(reached) did", sourceLocation: sourceLocation)
    }

    func waitUntilFinished(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        while log.withLock({ $0.finished }) < count && !Task.isCancelled { await Task.yield() }
        let reached = log.withLock { $0.finished }
        #expect(reached >= count, "cancelled while waiting for \(count) transforms finished; \(reached) did", sourceLocation: sourceLocation)
    }

    func waitUntilCancelled(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        while log.withLock({ $0.cancelled.count }) < count && !Task.isCancelled { await Task.yield() }
        let reached = log.withLock { $0.cancelled.count }
        #expect(reached >= count, "cancelled while waiting for \(count) transforms cancelled; \(reached) did", sourceLocation: sourceLocation)
    }
}

@Suite("asyncMap, asyncMapUnordered and asyncMapLatest: an async closure per element", .timeLimit(.minutes(12)))
struct AsyncMapTests {
    @Test("ordered: runs up to maxConcurrent at once and publishes in the upstream's order, whatever order they finish in")
    func ordered() async {
        let runs = Runs(3)
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        (0..<3).publisher.asyncMap(maxConcurrent: 2) { await runs.run($0) }.subscribe(recorder)
        await runs.waitUntilStarted(2)
        #expect(runs.started.sorted() == [0, 1], "two at once, the third not yet asked for")
        runs.gates[1].open()
        await runs.waitUntilFinished(1)
        #expect(recorder.values.isEmpty, "1 waits for 0")
        #expect(runs.started.count == 2, "a result waiting for an earlier one holds its slot")
        runs.gates[0].open()
        await recorder.waitForValues(count: 2)
        #expect(recorder.values == [0, 10])
        runs.gates[2].open()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == [0, 10, 20] && recorder.violations.isEmpty)
    }

    @Test("unordered: publishes each result as its run finishes")
    func unordered() async {
        let runs = Runs(2)
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        (0..<2).publisher.asyncMapUnordered(maxConcurrent: 2) { await runs.run($0) }.subscribe(recorder)
        await runs.waitUntilStarted(2)
        runs.gates[1].open()
        await recorder.waitForValues(count: 1)
        #expect(recorder.values == [10])
        runs.gates[0].open()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == [10, 0] && recorder.violations.isEmpty)
    }

    @Test("keeps maxConcurrent elements in hand from the first demand: requested, running or waiting for demand; one more per result delivered")
    func demand() async {
        let upstream = ControllablePublisher<Int, Never>()
        let runs = Runs(4)
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.asyncMap(maxConcurrent: 3) { await runs.run($0) }.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests.isEmpty, "nothing starts before the downstream asks")
        recorder.request(.max(1))
        #expect(subscription.requests == [.max(3)], "the tasks run ahead of a downstream asking for one")
        #expect(subscription.send(0) == .none)
        _ = subscription.send(1)
        _ = subscription.send(2)
        recorder.request(.max(5))
        #expect(subscription.requests == [.max(3)], "three in hand already")
        runs.gates[0].open()
        await recorder.waitForValues(count: 1)
        await subscription.waitForCalls { $0.count == 2 }
        #expect(subscription.requests == [.max(3), .max(1)], "a slot freed by a delivered result is refilled")
        #expect(recorder.violations.isEmpty)
    }

    @Test("results wait for demand, then go out; the stream finishes after the last")
    func resultsWaitForDemand() async {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        (0..<2).publisher.asyncMapUnordered(maxConcurrent: 2) { $0 }.subscribe(recorder)
        await recorder.waitForValues(count: 1)
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values.sorted() == [0, 1] && recorder.violations.isEmpty)
    }

    @Test("cancel cancels the upstream and every running task, and delivers nothing after")
    func cancellation() async {
        let upstream = ControllablePublisher<Int, Never>()
        let runs = Runs(2)
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.asyncMap(maxConcurrent: 2) { await runs.run($0) }.subscribe(recorder)
        _ = upstream.subscriptions[0].send(0)
        _ = upstream.subscriptions[0].send(1)
        await runs.waitUntilStarted(2)
        recorder.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        await runs.waitUntilCancelled(2)
        #expect(runs.cancelled.sorted() == [0, 1])
        #expect(recorder.values.isEmpty && recorder.completion == nil)
    }

    @Test("a failing run fails the stream, cancelling the upstream and the other runs")
    func transformFailure() async {
        let upstream = ControllablePublisher<Int, Boom>()
        let runs = Runs(2)
        let recorder = RecordingSubscriber<Int, Boom>()
        defer { recorder.cancel() }
        upstream.asyncMap(maxConcurrent: 2) { (value: Int) async throws(Boom) -> Int in
            if value == 1 { throw Boom() }
            return await runs.run(value)
        }.subscribe(recorder)
        _ = upstream.subscriptions[0].send(0)
        await runs.waitUntilStarted(1)
        _ = upstream.subscriptions[0].send(1)
        #expect(await recorder.waitForCompletion() == .failure(Boom()))
        #expect(upstream.subscriptions[0].cancelCount == 1)
        await runs.waitUntilCancelled(1)
        #expect(recorder.values.isEmpty && recorder.violations.isEmpty)
    }

    @Test("an upstream failure fails the stream at once, cancelling the runs")
    func upstreamFailure() async {
        let upstream = ControllablePublisher<Int, Boom>()
        let runs = Runs(1)
        let recorder = RecordingSubscriber<Int, Boom>()
        defer { recorder.cancel() }
        upstream.asyncMap { await runs.run($0) }.subscribe(recorder)
        _ = upstream.subscriptions[0].send(0)
        await runs.waitUntilStarted(1)
        upstream.subscriptions[0].send(completion: .failure(Boom()))
        #expect(recorder.completion == .failure(Boom()))
        await runs.waitUntilCancelled(1)
    }

    @Test("latest: a new element cancels the previous run, whose result is dropped; the upstream is asked for everything")
    func latest() async {
        let upstream = ControllablePublisher<Int, Never>()
        let runs = Runs(2)
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        upstream.asyncMapLatest { await runs.run($0) }.subscribe(recorder)
        #expect(upstream.subscriptions[0].requests == [.unlimited])
        _ = upstream.subscriptions[0].send(0)
        await runs.waitUntilStarted(1)
        _ = upstream.subscriptions[0].send(1)
        await runs.waitUntilCancelled(1)
        #expect(runs.cancelled == [0])
        upstream.subscriptions[0].send(completion: .finished)
        #expect(recorder.completion == nil, "the latest run is still going")
        runs.gates[1].open()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == [10] && recorder.violations.isEmpty)
    }

    @Test("many elements through many runs: every result once, in order")
    func manyInOrder() async {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        defer { recorder.cancel() }
        (0..<2_000).publisher.asyncMap(maxConcurrent: 8) { $0 * 2 }.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == (0..<2_000).map { $0 * 2 } && recorder.violations.isEmpty)
    }

    @Test("the transforms run on at most maxConcurrent tasks, which take the values one after another")
    func workersAreReused() async {
        let tasks = Locked<Set<Int>>([])
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        (0..<200).publisher.asyncMap(maxConcurrent: 2) { value in
            // A worker's task lives until the stream ends, so two transforms that see the same
            // task address ran on one task. (A task per value could reuse a freed address, so
            // this can pass by luck, but not reliably.)
            tasks.withLock { _ = $0.insert(withUnsafeCurrentTask { $0!.hashValue }) }
            return value
        }.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(tasks.withLock { $0.count } <= 2)
        #expect(recorder.values == Array(0..<200))
    }

    @Test("its tasks end with the subscription: after the completion, and after a cancel", arguments: [false, true])
    func tasksEndWithTheSubscription(cancelling: Bool) async {
        weak var subscription: AnyObject?
        do {
            let upstream = ControllablePublisher<Int, Never>()
            defer { upstream.detachAll() }
            let recorder = RecordingSubscriber<Int, Never>()
            upstream.asyncMap(maxConcurrent: 3) { $0 }.subscribe(recorder)
            for value in 0..<3 { _ = upstream.subscriptions[0].send(value) }
            await recorder.waitForValues(count: 3)  // three workers, parked for a value
            if cancelling {
                recorder.cancel()
            } else {
                upstream.subscriptions[0].send(completion: .finished)
                #expect(await recorder.waitForCompletion() == .finished)
            }
            subscription = recorder.subscription as AnyObject?
            #expect(subscription != nil)
        }
        // Only a worker left parked would still hold the subscription.
        let deadline = ContinuousClock.now + .seconds(10)
        while subscription != nil, ContinuousClock.now < deadline { await Task.yield() }
        #expect(subscription == nil)
    }

    @Test("describes itself")
    func description() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        Just(1).asyncMap { $0 }.subscribe(recorder)
        #expect(recorder.subscription.map { "\($0)" } == "AsyncMap")
    }

    @Test("maxConcurrent below 1 traps, naming the rule", .exitTest)
    func zeroConcurrencyTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).asyncMap(maxConcurrent: 0) { $0 }
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("asyncMap takes a positive maxConcurrent") && message.contains("(rule 2)"))
        }
    }
}
