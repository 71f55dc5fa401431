import Dispatch
import Testing
import Sluice
import SluiceTesting

@Suite("debounce(for:scheduler:options:)", .timeLimit(.minutes(12)))
struct DebounceTests {
    @Test("on a scheduler Sluice does not own, its subscription mirrors Combine's: downstream, downstreamDemand, currentValue")
    func mirrorOnAForeignScheduler() throws {
        let scheduler = CallLoggingScheduler()
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        defer { recorder.cancel() }
        upstream.debounce(for: .nanoseconds(10), scheduler: scheduler).subscribe(recorder)
        _ = upstream.subscriptions[0].send(4)
        let given = try #require(recorder.subscription)
        let children = Array(try #require(given as? any CustomReflectable).customMirror.children)
        #expect(children.map(\.label) == ["downstream", "downstreamDemand", "currentValue"])
        #expect(children[1].value as? Subscribers.Demand == .max(2))
        #expect(children[2].value as? Int == 4, "the value waiting for its timer")
    }

    @Test("the last value of a burst goes out exactly dueTime after it; a value alone goes out dueTime after it")
    func emitsAfterQuiet() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        let received = stamps(of: recorder, on: scheduler)
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        scheduler.advance(toMs: 300)
        subject.send(2)
        scheduler.advance(toMs: 500)
        subject.send(3)
        scheduler.advance(toMs: 1_499)
        #expect(recorder.values.isEmpty)
        scheduler.advance(toMs: 1_500)
        #expect(received.withLock { $0 } == [Stamp(3, at: 1_500)])
        scheduler.advance(toMs: 3_000)
        subject.send(4)
        scheduler.advance(toMs: 10_000)
        #expect(received.withLock { $0 } == [Stamp(3, at: 1_500), Stamp(4, at: 4_000)])
        #expect(recorder.violations.isEmpty)
    }

    @Test("a burst of values keeps one timer scheduled, however many move the deadline")
    func oneTimerPerBurst() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        for value in 0..<1_000 {
            subject.send(value)
            scheduler.advance(by: .milliseconds(1))
        }
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [999] && scheduler.scheduledCount == 0)
    }

    @Test("asks the upstream for unlimited, and drops a value that comes due while the subscriber has no demand")
    func demand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        let recorder = TimingRecorder(initialDemand: .max(1))
        defer { recorder.cancel() }
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.unlimited])
        _ = subscription.send(1)
        scheduler.advance(by: .seconds(1))
        _ = subscription.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [1], "2 came due without demand")
        recorder.request(.max(1))
        #expect(recorder.values == [1], "a dropped value is not kept for later demand")
        _ = subscription.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [1, 3] && recorder.violations.isEmpty)
        #expect(subscription.requests == [.unlimited])
    }

    @Test("the completion, and a failure, drop the value still waiting and arrive at the scheduler's next turn")
    func completionDropsWaitingValue() {
        for ending in [Subscribers.Completion<TimingFailure>.finished, .failure(TimingFailure())] {
            let scheduler = VirtualTimeScheduler()
            let subject = PassthroughSubject<Int, TimingFailure>()
            let recorder = TimingRecorder()
            subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
            subject.send(1)
            scheduler.advance(toMs: 400)
            subject.send(completion: ending)
            #expect(recorder.completion == nil, "scheduled, not delivered inside the upstream's call")
            scheduler.advance()
            #expect(recorder.completion == ending && scheduler.ms == 400)
            scheduler.advance(by: .seconds(2))
            #expect(recorder.values.isEmpty && recorder.violations.isEmpty)
        }
    }

    @Test("cancel before the value comes due: nothing is delivered, the upstream is cancelled, the subscriber let go")
    func cancelBeforeFire() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        var recorder: TimingRecorder? = TimingRecorder()
        let weak = WeakBox(recorder!)
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder!)
        _ = upstream.subscriptions[0].send(1)
        recorder!.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        #expect(recorder!.values.isEmpty && recorder!.violations.isEmpty)
        recorder = nil
        #expect(weak.object == nil)
        scheduler.advance(by: .seconds(2))
        upstream.detachAll()
    }

    @Test("cancel from inside receive: nothing more arrives; the subscriber is let go after the completion")
    func reentrantCancelAndRelease() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        recorder.onValue { [unowned recorder] _ in
            subject.send(99)
            recorder.cancel()
            return .none
        }
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .seconds(5))
        #expect(recorder.values == [1] && recorder.violations.isEmpty)

        var other: TimingRecorder? = TimingRecorder()
        let weak = WeakBox(other!)
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(other!)
        subject.send(completion: .finished)
        other = nil
        scheduler.advance()
        #expect(weak.object == nil)
    }

    @Test("a cancel from inside receive(subscription:) cancels the upstream, which is asked for nothing")
    func cancelOnSubscription() {
        let upstream = ControllablePublisher<Int, TimingFailure>()
        upstream.debounce(for: .seconds(1), scheduler: VirtualTimeScheduler()).subscribe(CancellingAtOnce())
        #expect(upstream.subscriptions[0].history == [.cancel])
        upstream.detachAll()
    }

    /// A subscriber that cancels the subscription it is given, at once.
    struct CancellingAtOnce: Subscriber {
        typealias Input = Int
        typealias Failure = TimingFailure
        let combineIdentifier = CombineIdentifier()
        func receive(subscription: any Subscription) { subscription.cancel() }
        func receive(_ input: Int) -> Subscribers.Demand { .none }
        func receive(completion: Subscribers.Completion<TimingFailure>) {}
    }

    @Test("on an immediate scheduler each value goes out at once")
    func immediate() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        subject.debounce(for: .seconds(1), scheduler: ImmediateScheduler.shared).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.values == [1, 2] && recorder.completion == .finished)
    }

    @Test("describes itself as Combine's does")
    func describes() {
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        PassthroughSubject<Int, TimingFailure>().debounce(for: .seconds(1), scheduler: VirtualTimeScheduler()).subscribe(recorder)
        #expect((recorder.subscription as? CustomStringConvertible)?.description == "Debounce")
    }

    @Test("upstream on another thread, a real serial queue as scheduler: the last value, then the completion")
    func realQueue() async {
        let (queue, sender) = timingQueues("debounce")
        let subject = PassthroughSubject<Int, TimingFailure>()
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        subject.debounce(for: .milliseconds(20), scheduler: queue).subscribe(recorder)
        sender.async { for value in 0..<100 { subject.send(value) } }
        await recorder.waitForValues(count: 1)
        sender.async { subject.send(completion: .finished) }
        #expect(await recorder.waitForCompletion() == .finished)
        // The sends may straddle a due time on a loaded machine, but the last one always goes out.
        #expect(recorder.values.last == 99 && recorder.violations.isEmpty)
    }
}
