import Dispatch
import Testing
import Sluice
import SluiceTesting

@Suite("throttle(for:scheduler:latest:)", .timeLimit(.minutes(12)))
struct ThrottleTests {
    /// Sends 1 at 0, 2 at 200, 3 at 500, 4 at 1,500, 5 at 1,700 and 6 at 5,000 (ms) through a
    /// one-second throttle, and returns when each value went out.
    func run(latest: Bool) -> [Stamp] {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        let received = stamps(of: recorder, on: scheduler)
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: latest).subscribe(recorder)
        for (value, ms) in [(1, 0), (2, 200), (3, 500), (4, 1_500), (5, 1_700), (6, 5_000)] {
            scheduler.advance(toMs: ms)
            subject.send(value)
        }
        scheduler.advance(toMs: 10_000)
        #expect(recorder.violations.isEmpty)
        return received.withLock { $0 }
    }

    @Test("latest: false — the first value goes out at once, then the first of each window, a window after the last emission")
    func firstOfWindow() {
        #expect(run(latest: false) == [Stamp(1, at: 0), Stamp(2, at: 1_000), Stamp(4, at: 2_000), Stamp(6, at: 5_000)])
    }

    @Test("latest: true — the first value goes out at once, then the latest of each window")
    func latestOfWindow() {
        #expect(run(latest: true) == [Stamp(1, at: 0), Stamp(3, at: 1_000), Stamp(5, at: 2_000), Stamp(6, at: 5_000)])
    }

    @Test("the first value goes out at the scheduler's next turn, not inside the upstream's call")
    func firstValueHops() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
        subject.send(1)
        #expect(recorder.values.isEmpty)
        scheduler.advance()
        #expect(recorder.values == [1] && scheduler.ms == 0)
    }

    @Test("asks the upstream for unlimited; a value that arrives without demand is dropped")
    func demand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        let recorder = TimingRecorder(initialDemand: .max(1))
        defer { recorder.cancel() }
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.unlimited])
        _ = subscription.send(1)
        _ = subscription.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [2], "the waiting value took the one demand")
        _ = subscription.send(3)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values == [2], "no demand when 3 arrived")
        recorder.request(.max(1))
        _ = subscription.send(4)
        scheduler.advance()
        #expect(recorder.values == [2, 4] && recorder.violations.isEmpty)
    }

    @Test("the completion waits for the value waiting and comes right after it; with none waiting, at the next turn")
    func completion() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        let received = stamps(of: recorder, on: scheduler)
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(recorder)
        subject.send(1)
        scheduler.advance(toMs: 100)
        subject.send(2)
        subject.send(completion: .failure(TimingFailure()))
        scheduler.advance(toMs: 999)
        #expect(recorder.completion == nil)
        scheduler.advance(toMs: 1_000)
        #expect(received.withLock { $0 } == [Stamp(1, at: 0), Stamp(2, at: 1_000)])
        #expect(recorder.completion == .failure(TimingFailure()) && recorder.violations.isEmpty)

        let other = TimingRecorder()
        let later = PassthroughSubject<Int, TimingFailure>()
        later.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(other)
        later.send(completion: .finished)
        #expect(other.completion == nil)
        scheduler.advance()
        #expect(other.completion == .finished)
    }

    @Test("cancel before the emission: nothing arrives, the upstream is cancelled, the subscriber let go")
    func cancelBeforeFire() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        var recorder: TimingRecorder? = TimingRecorder()
        let weak = WeakBox(recorder!)
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder!)
        _ = upstream.subscriptions[0].send(1)
        recorder!.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        scheduler.advance(by: .seconds(2))
        #expect(recorder!.values.isEmpty && recorder!.violations.isEmpty)
        recorder = nil
        #expect(weak.object == nil)
        upstream.detachAll()
    }

    @Test("a value sent from inside receive waits for its window; a cancel there stops everything")
    func reentrancy() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        let received = Locked<[Int]>([])
        recorder.onValue { [unowned recorder] value in
            received.withLock { $0.append(value) }
            if value < 3 { subject.send(value + 1) } else { recorder.cancel() }
            return .none
        }
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .seconds(10))
        #expect(received.withLock { $0 } == [1, 2, 3] && scheduler.ms == 10_000 && recorder.violations.isEmpty)
        subject.send(4)
        scheduler.advance(by: .seconds(10))
        #expect(received.withLock { $0 } == [1, 2, 3])
    }

    @Test("describes itself as Combine's does")
    func describes() {
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        PassthroughSubject<Int, TimingFailure>().throttle(for: .seconds(1), scheduler: VirtualTimeScheduler(), latest: false)
            .subscribe(recorder)
        #expect((recorder.subscription as? CustomStringConvertible)?.description == "Throttle")
    }

    @Test("upstream on another thread, a real serial queue as scheduler: the first value, later ones in order, then the completion")
    func realQueue() async {
        let (queue, sender) = timingQueues("throttle")
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        // Not `latest`: with it, values sent before the first emission's turn replace the first value.
        subject.throttle(for: .milliseconds(1), scheduler: queue, latest: false).subscribe(recorder)
        sender.async {
            for value in 0..<1_000 { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(await recorder.waitForCompletion() == .finished)
        let values = recorder.values
        #expect(values.first == 0 && values == Array(Set(values)).sorted() && recorder.violations.isEmpty, "\(values)")
    }
}
