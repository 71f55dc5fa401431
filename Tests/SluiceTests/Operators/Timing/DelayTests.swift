import Dispatch
import Testing
import Sluice
import SluiceTesting

@Suite("delay(for:tolerance:scheduler:options:)", .timeLimit(.minutes(12)))
struct DelayTests {
    @Test("each value and the completion arrive exactly the interval after they were sent, in order")
    func delaysEverySignal() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        let received = stamps(of: recorder, on: scheduler)
        subject.delay(for: .seconds(10), scheduler: scheduler).subscribe(recorder)
        #expect(recorder.events.count == 1, "the subscription itself is not delayed")
        subject.send(1)
        scheduler.advance(toMs: 3_000)
        subject.send(2)
        subject.send(3)
        scheduler.advance(toMs: 4_000)
        subject.send(completion: .finished)
        scheduler.advance(toMs: 9_999)
        #expect(recorder.values.isEmpty)
        scheduler.advance(toMs: 12_999)
        #expect(received.withLock { $0 } == [Stamp(1, at: 10_000)])
        scheduler.advance(toMs: 13_000)
        #expect(received.withLock { $0 } == [Stamp(1, at: 10_000), Stamp(2, at: 13_000), Stamp(3, at: 13_000)])
        scheduler.advance(toMs: 13_999)
        #expect(recorder.completion == nil)
        scheduler.advance(toMs: 14_000)
        #expect(recorder.completion == .finished && recorder.violations.isEmpty)
    }

    @Test("a failure is delayed as the completion is")
    func delaysFailure() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TimingFailure()))
        scheduler.advance(toMs: 999)
        #expect(recorder.events.count == 1)
        scheduler.advance(toMs: 1_000)
        #expect(recorder.values == [1] && recorder.completion == .failure(TimingFailure()))
    }

    @Test("demand passes to the upstream, and the demand returned from receive goes there as each value is delivered")
    func passesDemandThrough() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        let recorder = TimingRecorder(initialDemand: .max(2), demandPerValue: .max(1))
        defer { recorder.cancel() }
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.max(2)])
        #expect(subscription.send(1) == .none, "the demand comes back only when the value is delivered")
        #expect(subscription.requests == [.max(2)])
        scheduler.advance(by: .seconds(1))
        #expect(subscription.requests == [.max(2), .max(1)])
        recorder.request(.max(5))
        #expect(subscription.requests == [.max(2), .max(1), .max(5)])
        #expect(recorder.violations.isEmpty)
    }

    @Test("cancel before the scheduled delivery: it delivers nothing, the upstream is cancelled, the subscriber let go")
    func cancelBeforeFire() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        var recorder: TimingRecorder? = TimingRecorder()
        let weak = WeakBox(recorder!)
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder!)
        _ = upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(completion: .finished)
        recorder!.subscription!.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 0, "the upstream had completed already")
        recorder = nil
        #expect(weak.object == nil, "released at the cancel, before the scheduled runs")
        scheduler.advance(by: .seconds(2))
        #expect(scheduler.scheduledCount == 0)
    }

    @Test("cancel cancels the upstream once and drops the values still scheduled")
    func cancelDropsScheduled() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        let recorder = TimingRecorder()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        _ = upstream.subscriptions[0].send(1)
        recorder.cancel()
        recorder.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values.isEmpty && recorder.completion == nil && recorder.violations.isEmpty)
        upstream.detachAll()
    }

    @Test("a subscription its upstream never takes holds nothing: the subscriber is let go with it")
    func releaseWhenNeverSubscribed() {
        var recorder: TimingRecorder? = TimingRecorder()
        let weak = WeakBox(recorder!)
        Dropping().delay(for: .seconds(1), scheduler: VirtualTimeScheduler()).subscribe(recorder!)
        Dropping().debounce(for: .seconds(1), scheduler: VirtualTimeScheduler()).subscribe(recorder!)
        recorder = nil
        #expect(weak.object == nil)
    }

    /// A publisher that lets go of its subscriber without a signal.
    struct Dropping: Publisher {
        typealias Output = Int
        typealias Failure = TimingFailure
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TimingFailure {}
    }

    @Test("the subscriber is let go once the completion is delivered")
    func releaseAfterCompletion() {
        let scheduler = VirtualTimeScheduler()
        var recorder: TimingRecorder? = TimingRecorder()
        let weak = WeakBox(recorder!)
        Just(1).setFailureType(to: TimingFailure.self).delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder!)
        recorder = nil
        #expect(weak.object != nil, "held until the completion is delivered")
        scheduler.advance(by: .seconds(1))
        #expect(weak.object == nil)
    }

    @Test("a value the upstream sends from inside receive is delivered after the current one, not nested in it; a cancel there stops the rest")
    func reentrancy() {
        let upstream = ControllablePublisher<Int, TimingFailure>()
        let recorder = TimingRecorder()
        let depth = Locked(0)
        let maxDepth = Locked(0)
        let box = UncheckedBox(upstream)
        recorder.onValue { [unowned recorder] value in
            let now = depth.withLock { depth in
                depth += 1
                return depth
            }
            maxDepth.withLock { $0 = max($0, now) }
            // The controllable upstream calls the delay's receive directly, on this thread.
            if value < 5 { _ = box.value.subscriptions[0].send(value + 1) }
            if value == 5 { recorder.cancel() }
            depth.withLock { $0 -= 1 }
            return .none
        }
        upstream.delay(for: .seconds(1), scheduler: ImmediateScheduler.shared).subscribe(recorder)
        _ = upstream.subscriptions[0].send(1)
        _ = upstream.subscriptions[0].send(6)
        #expect(recorder.values == [1, 2, 3, 4, 5])
        #expect(maxDepth.withLock { $0 } == 1 && recorder.violations.isEmpty)
        #expect(upstream.subscriptions[0].cancelCount == 1)
        upstream.detachAll()
    }

    @Test("has no description, mirror or playground description of its own, as Combine's")
    func describes() throws {
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        PassthroughSubject<Int, TimingFailure>().delay(for: .seconds(1), scheduler: VirtualTimeScheduler()).subscribe(recorder)
        let subscription = try #require(recorder.subscription)
        #expect(!(subscription is any CustomStringConvertible))
        #expect(!(subscription is any CustomReflectable))
        #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
    }

    @Test("upstream on another thread, a real serial queue as scheduler: every value, in order, then the completion")
    func realQueue() async {
        let (queue, sender) = timingQueues("delay")
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        subject.delay(for: .milliseconds(1), scheduler: queue).subscribe(recorder)
        sender.async {
            for value in 0..<200 { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == Array(0..<200) && recorder.violations.isEmpty)
    }

    @Test("a concurrent queue as scheduler: signals still come one at a time, in order")
    func concurrentQueue() async {
        let queue = DispatchQueue(label: "sluice.timing.delay.concurrent", attributes: .concurrent)
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        subject.delay(for: .zero, scheduler: queue).subscribe(recorder)
        for value in 0..<2_000 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == Array(0..<2_000) && recorder.violations.isEmpty)
    }
}
