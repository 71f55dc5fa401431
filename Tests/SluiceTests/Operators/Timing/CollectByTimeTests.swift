import Dispatch
import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

/// A recorder of arrays that also notes the virtual time (in seconds) each one arrived at.
private final class TimedRecorder: Sendable {
    let recorder: RecordingSubscriber<[Int], Boom>
    private let times = Locked<[Double]>([])

    init(_ scheduler: VirtualTimeScheduler, initialDemand: Subscribers.Demand = .unlimited) {
        let recorder = RecordingSubscriber<[Int], Boom>(initialDemand: initialDemand)
        defer { recorder.cancel() }
        let times = times
        recorder.onValue { _ in
            times.withLock { $0.append(Double(scheduler.now.nanoseconds) / 1e9) }
            return .none
        }
        self.recorder = recorder
    }

    /// Ends the subscription with the test, so that the recorder and it do not keep each other.
    deinit {
        recorder.cancel()
    }

    var arrays: [[Int]] { recorder.values }
    var arrivals: [Double] { times.withLock { $0 } }
}

private func seconds(_ value: Double) -> NanosecondStride { .seconds(value) }

@Suite("collect(_:options:) by time")
struct CollectByTimeTests {
    // MARK: Timing

    @Test("byTime: each tick sends what arrived since the last, never an empty array")
    func byTimeTicks() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let timed = TimedRecorder(scheduler)
        defer { timed.recorder.cancel() }
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(timed.recorder)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: seconds(1))
        scheduler.advance(by: seconds(1))  // nothing arrived: no array
        subject.send(3)
        scheduler.advance(by: seconds(0.5))
        subject.send(4)
        scheduler.advance(by: seconds(0.5))
        #expect(timed.arrays == [[1, 2], [3, 4]] && timed.arrivals == [1, 3])
        #expect(timed.recorder.violations.isEmpty)
    }

    @Test("byTimeOrCount: a full array goes out by the scheduler right after, and the timer keeps its pace")
    func byTimeOrCountCount() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let timed = TimedRecorder(scheduler)
        defer { timed.recorder.cancel() }
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(timed.recorder)
        scheduler.advance(by: seconds(0.5))
        subject.send(1)
        subject.send(2)
        #expect(timed.arrays.isEmpty, "sent by the scheduler, not by the upstream's call")
        scheduler.advance()
        #expect(timed.arrays == [[1, 2]] && timed.arrivals == [0.5])
        subject.send(3)
        subject.send(4)
        subject.send(5)
        scheduler.advance(by: seconds(0.5))
        #expect(timed.arrays == [[1, 2], [3, 4], [5]] && timed.arrivals == [0.5, 0.5, 1], "the tick at 1s, not 1.5s")
        #expect(timed.recorder.violations.isEmpty)
    }

    // MARK: Demand

    @Test("byTime asks the upstream for .unlimited at the downstream's first request, and only then")
    func byTimeUpstreamDemand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        #expect(upstream.subscriptions[0].requests.isEmpty)
        recorder.request(.max(1))
        recorder.request(.max(2))
        #expect(upstream.subscriptions[0].requests == [.unlimited])
    }

    @Test("byTimeOrCount asks the upstream for count elements per array, requested or returned")
    func byTimeOrCountUpstreamDemand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>(initialDemand: .max(2), demandPerValue: .max(1))
        defer { recorder.cancel() }
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(recorder)
        #expect(upstream.subscriptions[0].requests == [.max(6)])
        for value in 0..<3 { #expect(upstream.subscriptions[0].send(value) == .none) }
        scheduler.advance()
        #expect(recorder.values == [[0, 1, 2]] && upstream.subscriptions[0].requests == [.max(6), .max(3)])
        recorder.request(.unlimited)
        #expect(upstream.subscriptions[0].requests == [.max(6), .max(3), .unlimited])
    }

    @Test("A tick without demand leaves the array open: it keeps collecting until a tick finds demand")
    func tickWithoutDemand() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let timed = TimedRecorder(scheduler, initialDemand: .max(1))
        defer { timed.recorder.cancel() }
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(timed.recorder)
        subject.send(1)
        scheduler.advance(by: seconds(1))
        subject.send(2)
        scheduler.advance(by: seconds(1))
        subject.send(3)
        timed.recorder.request(.max(1))
        #expect(timed.arrays == [[1]], "a request does not close the open array")
        scheduler.advance(by: seconds(1))
        #expect(timed.arrays == [[1], [2, 3]] && timed.arrivals == [1, 3] && timed.recorder.violations.isEmpty)
    }

    @Test("byTimeOrCount: full arrays without demand wait, and go out by the scheduler once requested")
    func fullArraysWaitForDemand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Boom>()
        let timed = TimedRecorder(scheduler, initialDemand: .max(1))
        defer { upstream.detachAll() }
        upstream.collect(.byTimeOrCount(scheduler, .seconds(10), 2)).subscribe(timed.recorder)
        for value in 1...5 { _ = upstream.subscriptions[0].send(value) }  // beyond the demand of 2
        scheduler.advance(by: seconds(1))
        #expect(timed.arrays == [[1, 2]])
        timed.recorder.request(.max(1))
        #expect(timed.arrays == [[1, 2]], "sent by the scheduler, at the time of the request")
        scheduler.advance(by: seconds(1))
        #expect(timed.arrays == [[1, 2], [3, 4]] && timed.arrivals == [0, 1] && timed.recorder.violations.isEmpty)
    }

    @Test("A request from inside receive is served in the same run, in order")
    func reentrantRequest() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>(initialDemand: .max(1))
        defer { recorder.cancel() }
        defer { upstream.detachAll() }
        recorder.onValue { _ in
            recorder.request(.max(1))
            return .none
        }
        upstream.collect(.byTimeOrCount(scheduler, .seconds(10), 1)).subscribe(recorder)
        for value in 0..<100 { _ = upstream.subscriptions[0].send(value) }
        scheduler.advance()
        #expect(recorder.values == (0..<100).map { [$0] } && recorder.violations.isEmpty)
        #expect(scheduler.scheduledCount == 1, "only the timer is left: the run did not schedule itself again")
    }

    // MARK: Completion

    @Test(".finished sends the open array, then finishes, by the scheduler; without demand they wait for it")
    func finishedSendsRest() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let timed = TimedRecorder(scheduler, initialDemand: .none)
        defer { timed.recorder.cancel() }
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(timed.recorder)
        timed.recorder.request(.max(1))
        subject.send(1)
        subject.send(completion: .finished)
        #expect(timed.arrays.isEmpty && timed.recorder.completion == nil, "sent by the scheduler")
        #expect(scheduler.scheduledCount == 1, "the timer is cancelled, the run remains")
        scheduler.advance()
        #expect(timed.arrays == [[1]] && timed.arrivals == [0] && timed.recorder.completion == .finished)
        #expect(scheduler.scheduledCount == 0 && timed.recorder.violations.isEmpty)
    }

    @Test(".finished with closed arrays and no demand: they and .finished wait for requests")
    func finishedWaitsForDemand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>(initialDemand: .none)
        defer { recorder.cancel() }
        defer { upstream.detachAll() }
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(recorder)
        for value in 1...3 { _ = upstream.subscriptions[0].send(value) }
        upstream.subscriptions[0].send(completion: .finished)
        scheduler.advance(by: seconds(5))
        #expect(recorder.values.isEmpty && recorder.completion == nil)
        recorder.request(.max(1))
        scheduler.advance()
        #expect(recorder.values == [[1, 2]] && recorder.completion == nil)
        recorder.request(.max(1))
        scheduler.advance()
        #expect(recorder.values == [[1, 2], [3]] && recorder.completion == .finished && recorder.violations.isEmpty)
    }

    @Test("A failure drops the open array and the arrays without demand; arrays already requested go first")
    func failureDropsRest() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>(initialDemand: .max(1))
        defer { recorder.cancel() }
        defer { upstream.detachAll() }
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(recorder)
        for value in 1...5 { _ = upstream.subscriptions[0].send(value) }
        upstream.subscriptions[0].send(completion: .failure(Boom()))
        #expect(recorder.values.isEmpty && recorder.completion == nil, "sent by the scheduler")
        scheduler.advance()
        #expect(recorder.values == [[1, 2]] && recorder.completion == .failure(Boom()))
        #expect(scheduler.scheduledCount == 0 && recorder.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test("Cancel before a tick: nothing more is sent, the timer and the upstream are cancelled once")
    func cancelBeforeTick() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>()
        defer { recorder.cancel() }
        defer { upstream.detachAll() }
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        _ = upstream.subscriptions[0].send(1)
        #expect(scheduler.scheduledCount == 1)
        recorder.cancel()
        recorder.cancel()
        #expect(scheduler.scheduledCount == 0 && upstream.subscriptions[0].cancelCount == 1)
        _ = upstream.subscriptions[0].send(2)
        upstream.subscriptions[0].send(completion: .finished)
        scheduler.advance(by: seconds(3))
        #expect(recorder.values.isEmpty && recorder.completion == nil && recorder.violations.isEmpty)
    }

    @Test("Cancel after a run was scheduled and before it runs: the run sends nothing")
    func cancelBeforeScheduledRun() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>()
        defer { recorder.cancel() }
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 1)).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        recorder.cancel()
        scheduler.advance()
        #expect(recorder.values.isEmpty && recorder.completion == nil && recorder.violations.isEmpty)
    }

    @Test("Cancel inside receive stops the arrays and the completion queued behind it")
    func cancelDuringDelivery() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>()
        defer { recorder.cancel() }
        recorder.onValue { _ in
            recorder.cancel()
            return .none
        }
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 1)).subscribe(recorder)
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        scheduler.advance(by: seconds(2))
        #expect(recorder.values == [[1]] && recorder.completion == nil && recorder.violations.isEmpty)
    }

    @Test("After a cancel or the completion, nothing keeps the subscription alive (its timer's action is dropped)", arguments: [true, false])
    func releaseAfterEnd(cancelling: Bool) {
        let scheduler = VirtualTimeScheduler()
        weak var weakSubscription: AnyObject?
        weak var weakRecorder: RecordingSubscriber<[Int], Boom>?
        do {
            let upstream = ControllablePublisher<Int, Boom>()
            let recorder = RecordingSubscriber<[Int], Boom>()
            defer { recorder.cancel() }
            weakRecorder = recorder
            upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject?
            _ = upstream.subscriptions[0].send(1)
            if cancelling {
                recorder.cancel()
            } else {
                upstream.subscriptions[0].send(completion: .finished)
                scheduler.advance()
                #expect(recorder.completion == .finished)
            }
            upstream.detachAll()
        }
        #expect(scheduler.scheduledCount == 0)
        #expect(weakSubscription == nil && weakRecorder == nil)
    }

    // MARK: Threads

    @Test("On a real DispatchQueue: every element once, in order, in arrays of at most count, then .finished",
          .timeLimit(.minutes(12)))
    func dispatchQueue() async {
        let queue = DispatchQueue(label: "collect-by-time-test")
        let subject = PassthroughSubject<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>()
        defer { recorder.cancel() }
        subject.collect(.byTimeOrCount(queue, .milliseconds(1), 10)).subscribe(recorder)
        for value in 0..<1_000 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values.joined().elementsEqual(0..<1_000))
        #expect(recorder.values.allSatisfy { !$0.isEmpty && $0.count <= 10 } && recorder.violations.isEmpty)
    }

    @Test("The upstream sending on one thread, the downstream requesting on another, the clock advancing on a third: every element once, in order, one signal at a time", arguments: 0..<30)
    func racingThreads(round: Int) {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>(initialDemand: .none)
        defer { recorder.cancel() }
        defer { upstream.detachAll() }
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(recorder)
        let subscription = Shared(upstream.subscriptions[0])
        runConcurrently(threads: 3) { thread in
            switch thread {
            case 0: for value in 0..<300 { _ = subscription.value.send(value) }
            case 1: for _ in 0..<50 { recorder.request(.max(1)) }
            default: for _ in 0..<50 { scheduler.advance(by: .milliseconds(100)) }
            }
        }
        subscription.value.send(completion: .finished)
        recorder.request(.unlimited)
        scheduler.advance(by: seconds(1))
        #expect(recorder.values.joined().elementsEqual(0..<300))
        #expect(recorder.values.allSatisfy { !$0.isEmpty && $0.count <= 3 })
        #expect(recorder.completion == .finished && recorder.violations.isEmpty)
    }
}

/// The document scenario "collect handling a fast source": 10,000 values sent synchronously
/// into a consumer that has asked for 5 arrays.
@Suite("collect by time handling a fast source")
struct CollectFastSourceScenario {
    @Test("byTimeOrCount asks for count per array: a subject's surplus is dropped by the subject; the arrays are the first 500 values")
    func byTimeOrCount() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>(initialDemand: .max(5))
        defer { recorder.cancel() }
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 100)).subscribe(recorder)
        for value in 0..<10_000 { subject.send(value) }
        scheduler.advance(by: seconds(1))
        #expect(recorder.values == (0..<5).map { Array($0 * 100..<($0 + 1) * 100) })
    }

    @Test("byTime asks for .unlimited: every value is collected, into one array at the tick")
    func byTime() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let recorder = RecordingSubscriber<[Int], Boom>(initialDemand: .max(5))
        defer { recorder.cancel() }
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        for value in 0..<10_000 { subject.send(value) }
        scheduler.advance(by: seconds(1))
        #expect(recorder.values == [Array(0..<10_000)])
    }
}
