#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import Sluice
import SluiceTesting

private struct TestFailure: Error {}

/// A text stream that keeps what is written.
private final class Lines: TextOutputStream, @unchecked Sendable {
    var text = ""
    func write(_ string: String) { text += string }
}

/// A text stream that notes every write and whether another write was still running when it
/// began (it takes no lock of its own, so a second writer inside it is seen, not serialised).
private final class OverlapCheckingWrites: TextOutputStream, @unchecked Sendable {
    let inside = Locked(0)
    let overlaps = Locked(0)
    var writes: [String] = []   // touched only inside a write, so only while nobody else is
    func write(_ string: String) {
        if inside.withLock({ count -> Bool in count += 1; return count > 1 }) { overlaps.withLock { $0 += 1 } }
        writes.append(string)
        inside.withLock { $0 -= 1 }
    }
}

@Suite("handleEvents, print, breakpoint, assertNoFailure", .timeLimit(.minutes(12)))
struct DebuggingOperatorTests {
    @Test("handleEvents sees every event, in order, before it is passed on, and changes nothing")
    func handleEventsOrder() {
        let log = Locked<[String]>([])
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        (1...3).publisher.handleEvents(
            receiveSubscription: { _ in log.withLock { $0.append("subscription") } },
            receiveOutput: { value in log.withLock { $0.append("value \(value)") } },
            receiveCompletion: { _ in log.withLock { $0.append("completion") } },
            receiveCancel: { log.withLock { $0.append("cancel") } },
            receiveRequest: { demand in log.withLock { $0.append("request \(demand)") } }
        ).subscribe(recorder)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completion == .finished)
        #expect(log.withLock { $0 } == [
            "subscription", "request max(2)", "value 1", "request max(1)", "value 2", "request max(1)",
            "value 3", "request max(1)", "completion",
        ])
    }

    @Test("handleEvents: a cancel is seen once, reaches the upstream, and drops the downstream")
    func handleEventsCancel() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let cancels = Locked(0)
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            upstream.handleEvents(receiveCancel: { cancels.withLock { $0 += 1 } }).subscribe(recorder)
            recorder.cancel()
            recorder.subscription?.cancel()
        }
        #expect(cancels.withLock { $0 } == 1)
        #expect(upstream.subscriptions[0].cancelCount == 1)
        #expect(weakRecorder == nil)
    }

    @Test("handleEvents sees a request and a cancel before the upstream's subscription, and every subscription; the early cancel is otherwise ignored, as in Combine")
    func handleEventsBeforeAndAgainstTheRules() throws {
        let handing = HandingPublisher<Int, Never>()
        let log = Locked<[String]>([])
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        handing.handleEvents(
            receiveSubscription: { _ in log.withLock { $0.append("subscription") } },
            receiveCancel: { log.withLock { $0.append("cancel") } },
            receiveRequest: { demand in log.withLock { $0.append("request \(demand)") } }
        ).subscribe(recorder)
        // The operator's subscriber is also the subscription it hands down (Combine's shape).
        let operatorSubscription = try #require(handing.raw as? any Subscription)
        operatorSubscription.request(.max(1))
        operatorSubscription.cancel()
        let first = LoggingSubscription()
        try #require(handing.subscriber).receive(subscription: first)
        #expect(first.requests.isEmpty && first.cancelCount == 0, "the early request went nowhere; the early cancel was ignored")
        let second = LoggingSubscription()
        try #require(handing.subscriber).receive(subscription: second)
        #expect(second.cancelCount == 1)
        recorder.cancel()
        operatorSubscription.cancel()
        operatorSubscription.request(.max(2))
        #expect(first.cancelCount == 1)
        #expect(log.withLock { $0 } == ["request max(1)", "cancel", "subscription", "subscription", "cancel"])
    }

    @Test("print writes every subscription, request and cancel: before the upstream's subscription and after the end too, as in Combine")
    func printBeforeAndAfterTheEnd() throws {
        let lines = Lines()
        let handing = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        handing.print(to: lines).subscribe(recorder)
        try #require(handing.raw as? any Subscription).cancel()
        let first = LoggingSubscription()
        try #require(handing.subscriber).receive(subscription: first)
        recorder.cancel()
        let late = LoggingSubscription()
        try #require(handing.subscriber).receive(subscription: late)
        #expect(first.cancelCount == 1 && late.cancelCount == 1)
        #expect(lines.text == """
            receive cancel
            receive subscription: (LoggingSubscription)
            receive cancel
            receive subscription: (LoggingSubscription)

            """)
    }

    @Test("print hands its stream each line as Combine's does, with Swift's print(_:to:): an empty write, the line, the newline")
    func printWrites() {
        final class Writes: TextOutputStream {
            var writes: [String] = []
            func write(_ string: String) { writes.append(string) }
        }
        let writes = Writes()
        _ = Empty<Int, Never>().print("e", to: writes).sink { _ in }
        #expect(writes.writes == [
            "", "e: receive subscription: (Empty)", "\n", "", "e: request unlimited", "\n", "", "e: receive finished", "\n",
        ])
    }

    @Test("print's lines made on many threads at once reach the stream one at a time, each whole, none lost")
    func printFromManyThreads() async {
        let writes = OverlapCheckingWrites()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Empty<Int, Never>(completeImmediately: false).print(to: writes).subscribe(recorder)
        let subscription = UncheckedBox(recorder.subscription!)
        let perTask = StressBudget.scaled(500)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<perTask { subscription.value.request(.max(1)) } }
            }
        }
        subscription.value.cancel()
        #expect(writes.overlaps.withLock { $0 } == 0, "two lines were written at once")
        let requests = Array(repeating: ["", "request max: (1)", "\n"], count: 4 * perTask).flatMap { $0 }
        #expect(writes.writes == ["", "receive subscription: (Empty)", "\n"] + requests + ["", "receive cancel", "\n"])
    }

    @Test("print writes Combine's lines, with the prefix")
    func printLines() {
        let lines = Lines()
        _ = [1, 2].publisher.print("numbers", to: lines).sink { _ in }
        #expect(lines.text == """
            numbers: receive subscription: ([1, 2])
            numbers: request unlimited
            numbers: receive value: (1)
            numbers: receive value: (2)
            numbers: receive finished

            """)
        let failing = Lines()
        _ = Fail<Int, TestFailure>(error: TestFailure()).print(to: failing).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(failing.text.contains("receive error: (TestFailure())"))
    }

    @Test("assertNoFailure passes values through and traps on a failure, naming it", .exitTest)
    func assertNoFailure() async {
        var values: [Int] = []
        _ = [1, 2].publisher.assertNoFailure().sink { values.append($0) }
        #expect(values == [1, 2])
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Fail<Int, TestFailure>(error: TestFailure()).assertNoFailure("loading").sink { _ in }
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("loading assertNoFailure: unexpected failure: TestFailure()"), "\(message)")
    }

    @Test("breakpointOnError raises SIGTRAP on a failure and does nothing otherwise", .exitTest)
    func breakpointOnError() async {
        var values: [Int] = []
        _ = [1, 2].publisher.breakpointOnError().sink { values.append($0) }
        #expect(values == [1, 2])
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            _ = Fail<Int, TestFailure>(error: TestFailure()).breakpointOnError()
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
    }

    @Test("breakpoint hands the upstream's subscription on and passes everything through, as Combine's does")
    func breakpointPassesThrough() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let seen = Locked<[String]>([])
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.breakpoint(
            receiveSubscription: { _ in seen.withLock { $0.append("subscription") }; return false },
            receiveOutput: { value in seen.withLock { $0.append("value \(value)") }; return false },
            receiveCompletion: { _ in seen.withLock { $0.append("completion") }; return false }
        ).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(recorder.subscription.map { String(describing: $0) } == "ControllableSubscription")
        #expect(subscription.send(1) == .max(1), "the downstream's demand goes back upstream")
        subscription.send(completion: .finished)
        #expect(recorder.values == [1] && recorder.completion == .finished)
        #expect(seen.withLock { $0 } == ["subscription", "value 1", "completion"])
    }

    @Test("breakpoint's subscriber describes itself as Combine's does: \"Breakpoint\", with an empty mirror")
    func breakpointDescription() throws {
        let handing = HandingPublisher<Int, Never>()
        handing.breakpoint().subscribe(RecordingSubscriber<Int, Never>())
        let subscriber = try #require(handing.raw)
        #expect(String(describing: subscriber) == "Breakpoint")
        #expect(Mirror(reflecting: subscriber).children.isEmpty)
    }
}
