import Dispatch
import Testing
import Sluice
import SluiceTesting

@Suite("timeout(_:scheduler:options:customError:)", .timeLimit(.minutes(12)))
struct TimeoutTests {
    @Test("fires exactly the interval after the last value: finishes without customError, fails with it; cancels the upstream")
    func firesAfterLastValue() {
        for custom in [false, true] {
            let scheduler = VirtualTimeScheduler()
            let upstream = ControllablePublisher<Int, TimingFailure>()
            let recorder = TimingRecorder()
            let received = stamps(of: recorder, on: scheduler)
            let customError: (() -> TimingFailure)? = custom ? { TimingFailure() } : nil
            upstream.timeout(.seconds(1), scheduler: scheduler, customError: customError).subscribe(recorder)
            scheduler.advance(toMs: 500)
            _ = upstream.subscriptions[0].send(1)
            scheduler.advance(toMs: 1_200)
            _ = upstream.subscriptions[0].send(2)
            scheduler.advance(toMs: 2_199)
            #expect(recorder.completion == nil && upstream.subscriptions[0].cancelCount == 0)
            scheduler.advance(toMs: 2_200)
            #expect(received.withLock { $0 } == [Stamp(1, at: 500), Stamp(2, at: 1_200)])
            #expect(recorder.completion == (custom ? .failure(TimingFailure()) : .finished))
            #expect(upstream.subscriptions[0].cancelCount == 1)
            _ = upstream.subscriptions[0].send(3)
            scheduler.advance(by: .seconds(5))
            #expect(recorder.values == [1, 2] && recorder.violations.isEmpty)
            upstream.detachAll()
        }
    }

    @Test("with no value, fires the interval after the subscription")
    func firesWithoutValues() {
        let scheduler = VirtualTimeScheduler()
        let recorder = TimingRecorder()
        PassthroughSubject<Int, TimingFailure>().timeout(.seconds(3), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(toMs: 2_999)
        #expect(recorder.completion == nil)
        scheduler.advance(toMs: 3_000)
        #expect(recorder.completion == .finished)
    }

    @Test("the wait starts over at the first request, as in Combine")
    func restartsAtFirstRequest() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        let recorder = TimingRecorder(initialDemand: .none)
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(toMs: 600)
        recorder.request(.max(1))
        #expect(upstream.subscriptions[0].requests == [.max(1)], "demand passes through")
        scheduler.advance(toMs: 1_599)
        recorder.request(.max(1))
        #expect(recorder.completion == nil, "only the first request restarts the wait")
        scheduler.advance(toMs: 1_600)
        #expect(recorder.completion == .finished)
        upstream.detachAll()
    }

    @Test("values and the completion arrive at the scheduler's next turn, in order; after the completion the timer does nothing")
    func hopsAndCompletion() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        let recorder = TimingRecorder(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(1)
        _ = subscription.send(2)
        #expect(recorder.values.isEmpty)
        #expect(subscription.requests == [.max(2)])
        scheduler.advance()
        #expect(recorder.values == [1, 2])
        #expect(subscription.requests == [.max(2), .max(1), .max(1)], "the demand returned goes upstream")
        subscription.send(completion: .failure(TimingFailure()))
        #expect(recorder.completion == nil)
        scheduler.advance()
        #expect(recorder.completion == .failure(TimingFailure()))
        scheduler.advance(by: .seconds(5))
        #expect(subscription.cancelCount == 0 && recorder.violations.isEmpty)
    }

    @Test("cancel before the timer fires: nothing arrives, the upstream is cancelled once, the subscriber let go")
    func cancelBeforeFire() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        var recorder: TimingRecorder? = TimingRecorder()
        let weak = WeakBox(recorder!)
        upstream.timeout(.seconds(1), scheduler: scheduler) { TimingFailure() }.subscribe(recorder!)
        _ = upstream.subscriptions[0].send(1)
        recorder!.cancel()
        recorder!.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        scheduler.advance(by: .seconds(5))
        #expect(recorder!.events.count == 1 && recorder!.violations.isEmpty)
        recorder = nil
        #expect(weak.object == nil)
        upstream.detachAll()
    }

    @Test("a request and a cancel from inside receive; the subscriber is let go after timing out")
    func reentrancyAndRelease() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, TimingFailure>()
        var recorder: TimingRecorder? = TimingRecorder(initialDemand: .max(1))
        let weak = WeakBox(recorder!)
        recorder!.onValue { [unowned recorder = recorder!] value in
            if value == 1 { recorder.request(.max(1)) } else { recorder.cancel() }
            return .none
        }
        subject.timeout(.seconds(1), scheduler: scheduler).subscribe(recorder!)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .seconds(5))
        #expect(recorder!.values == [1, 2] && recorder!.completion == nil && recorder!.violations.isEmpty)

        recorder = TimingRecorder()
        subject.timeout(.seconds(1), scheduler: scheduler).subscribe(recorder!)
        let second = WeakBox(recorder!)
        recorder = nil
        #expect(weak.object == nil && second.object != nil)
        scheduler.advance(by: .seconds(1))
        #expect(second.object == nil, "let go once timed out")
    }

    @Test("describes itself as Combine's does")
    func describes() {
        let recorder = TimingRecorder()
        let scheduler = VirtualTimeScheduler()
        defer {
            recorder.cancel()
            scheduler.run()  // the timer's run, now a no-op, lets go of the subscription
        }
        PassthroughSubject<Int, TimingFailure>().timeout(.seconds(1), scheduler: scheduler).subscribe(recorder)
        #expect((recorder.subscription as? CustomStringConvertible)?.description == "Timeout")
    }

    @Test("upstream on another thread, a real serial queue as scheduler: values in order, then the timeout's failure")
    func realQueue() async {
        let (queue, sender) = timingQueues("timeout")
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        subject.timeout(.milliseconds(50), scheduler: queue) { TimingFailure() }.subscribe(recorder)
        sender.async { for value in 0..<100 { subject.send(value) } }
        #expect(await recorder.waitForCompletion() == .failure(TimingFailure()))
        // On a loaded machine the wait may run out between two sends; the values before are in order.
        #expect(recorder.values == Array(0..<recorder.values.count) && recorder.violations.isEmpty)
    }
}
