import Dispatch
import Testing
import Sluice
import SluiceTesting

@Suite("measureInterval(using:options:)", .timeLimit(.minutes(12)))
struct MeasureIntervalTests {
    typealias Recorder = RecordingSubscriber<NanosecondStride, TimingFailure>

    @Test("each value becomes the stride from the previous one, the first from the subscription")
    func strides() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, TimingFailure>()
        let recorder = Recorder()
        scheduler.advance(toMs: 3)
        subject.measureInterval(using: scheduler).subscribe(recorder)
        for ms in [14, 17, 17, 21] {
            scheduler.advance(toMs: ms)
            subject.send("tick")
        }
        subject.send(completion: .finished)
        #expect(recorder.values == [.milliseconds(11), .milliseconds(3), .zero, .milliseconds(4)])
        #expect(recorder.completion == .finished && recorder.violations.isEmpty)
    }

    @Test("synchronous: nothing is scheduled; demand passes through one for one; a failure passes on")
    func demandAndFailure() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        let recorder = Recorder(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.measureInterval(using: scheduler).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.max(2)])
        scheduler.advance(by: .seconds(2))
        #expect(subscription.send(1) == .none, "as from Combine's: the demand goes back as a request")
        #expect(subscription.requests == [.max(2), .max(1)], "the downstream's demand goes back to the upstream")
        #expect(recorder.values == [.seconds(2)] && scheduler.scheduledCount == 0)
        subscription.send(completion: .failure(TimingFailure()))
        #expect(recorder.completion == .failure(TimingFailure()) && recorder.violations.isEmpty)
    }

    @Test("cancel cancels the upstream once and lets go of the subscriber; nothing arrives after")
    func cancel() {
        let upstream = ControllablePublisher<Int, TimingFailure>()
        var recorder: Recorder? = Recorder()
        let weak = WeakBox(recorder!)
        upstream.measureInterval(using: VirtualTimeScheduler()).subscribe(recorder!)
        recorder!.cancel()
        recorder!.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        #expect(upstream.subscriptions[0].send(1) == .none)
        #expect(recorder!.values.isEmpty && recorder!.violations.isEmpty)
        recorder = nil
        #expect(weak.object == nil)
        upstream.detachAll()
    }

    @Test("a request and a cancel from inside receive: the request reaches the upstream, nothing follows the cancel")
    func reentrancy() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        let recorder = Recorder(initialDemand: .max(1))
        recorder.onValue { [unowned recorder] interval in
            if interval == .seconds(1) { recorder.request(.max(1)) } else { recorder.cancel() }
            return .none
        }
        upstream.measureInterval(using: scheduler).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        scheduler.advance(by: .seconds(1))
        _ = subscription.send(1)
        #expect(subscription.requests == [.max(1), .max(1)])
        scheduler.advance(by: .seconds(2))
        _ = subscription.send(2)
        #expect(subscription.cancelCount == 1)
        _ = subscription.send(3)
        #expect(recorder.values == [.seconds(1), .seconds(2)] && recorder.violations.isEmpty)
        upstream.detachAll()
    }

    @Test("the clock is read at the subscription and at each value, and not after a cancel")
    func clockReads() {
        let scheduler = CallLoggingScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        defer { upstream.detachAll() }
        let recorder = Recorder()
        upstream.measureInterval(using: scheduler).subscribe(recorder)
        _ = upstream.subscriptions[0].send(1)
        #expect(scheduler.calls == [.now, .now])
        recorder.cancel()
        _ = upstream.subscriptions[0].send(2)
        upstream.subscriptions[0].send(completion: .finished)
        #expect(scheduler.calls == [.now, .now] && recorder.values == [.zero])
    }

    @Test("a cancel before the upstream's subscription is ignored, as in Combine: that subscription is taken")
    func cancelBeforeSubscription() throws {
        let upstream = LatePublisher<Int, TimingFailure>()
        defer { upstream.inner.detachAll() }
        let recorder = Recorder()
        defer { recorder.cancel() }
        upstream.measureInterval(using: VirtualTimeScheduler()).subscribe(recorder)
        try #require(upstream.waitingSubscribers.first?.raw as? any Subscription).cancel()
        upstream.release()
        #expect(upstream.inner.subscriptions[0].history == [.request(.unlimited)])
        #expect(recorder.subscription != nil)
    }

    @Test("describes itself as Combine's does")
    func describes() {
        let recorder = Recorder()
        defer { recorder.cancel() }
        PassthroughSubject<Int, TimingFailure>().measureInterval(using: VirtualTimeScheduler()).subscribe(recorder)
        #expect((recorder.subscription as? CustomStringConvertible)?.description == "MeasureInterval")
    }

    @Test("upstream on another thread, a real serial queue's clock: one stride per value, none negative")
    func realQueue() async {
        let (queue, sender) = timingQueues("measureInterval")
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = RecordingSubscriber<DispatchQueue.SchedulerTimeType.Stride, TimingFailure>()
        defer { recorder.cancel() }
        subject.measureInterval(using: queue).subscribe(recorder)
        sender.async {
            for value in 0..<100 { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values.count == 100 && recorder.values.allSatisfy { $0 >= .zero } && recorder.violations.isEmpty)
    }
}
