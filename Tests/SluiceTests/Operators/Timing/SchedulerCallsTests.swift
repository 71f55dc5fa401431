import Testing
@_spi(Internals) import Sluice
import SluiceTesting

/// The scheduled operators make the calls to their scheduler that Combine's make, in the same
/// order (code that wraps a scheduler, or counts its calls, sees the same), and behave as
/// Combine's at the edges of the subscription: before it, and at `request(.none)`.
@Suite("timing operators: Combine's calls to the scheduler", .timeLimit(.minutes(6)))
struct SchedulerCallsTests {
    typealias Call = CallLoggingScheduler.Call

    @Test("timeout: each start of the wait reads now and minimumTolerance and schedules a repeating timer; a value then hops")
    func timeoutCalls() {
        let scheduler = CallLoggingScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        defer { upstream.detachAll() }
        let recorder = TimingRecorder(initialDemand: .max(2))
        defer { recorder.cancel() }
        upstream.timeout(.nanoseconds(13), scheduler: scheduler).subscribe(recorder)
        let start: [Call] = [.now, .minimumTolerance, .scheduleRepeating(13, interval: 13, tolerance: 7)]
        #expect(scheduler.calls == start + start, "once at the subscription, once at the first request")
        scheduler.advance(toNs: 10)
        _ = upstream.subscriptions[0].send(1)
        #expect(scheduler.calls == start + start + [.now, .minimumTolerance, .scheduleRepeating(23, interval: 13, tolerance: 7), .schedule])
        scheduler.advance(toNs: 22)
        #expect(recorder.values == [1] && recorder.completion == nil, "the timer of the subscription was cancelled")
        scheduler.advance(toNs: 23)
        #expect(recorder.completion == .finished && upstream.subscriptions[0].cancelCount == 1)
    }

    @Test("timeout: the upstream's completion cancels the timer and hops; nothing else is scheduled")
    func timeoutCompletionCalls() {
        let scheduler = CallLoggingScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        defer { upstream.detachAll() }
        let recorder = TimingRecorder(initialDemand: .none)
        upstream.timeout(.nanoseconds(13), scheduler: scheduler).subscribe(recorder)
        upstream.subscriptions[0].send(completion: .failure(TimingFailure()))
        #expect(scheduler.calls == [.now, .minimumTolerance, .scheduleRepeating(13, interval: 13, tolerance: 7), .schedule])
        scheduler.advance(toNs: 50)
        #expect(recorder.completion == .failure(TimingFailure()) && upstream.subscriptions[0].cancelCount == 0)
    }

    @Test("timeout passes request(.none) to its upstream, as Combine's does")
    func timeoutZeroRequest() {
        let upstream = ControllablePublisher<Int, TimingFailure>()
        defer { upstream.detachAll() }
        let recorder = TimingRecorder(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.timeout(.seconds(1), scheduler: VirtualTimeScheduler()).subscribe(recorder)
        recorder.request(.none)
        recorder.request(.max(2))
        #expect(upstream.subscriptions[0].requests == [.none, .max(2)])
    }

    @Test("timeout on an immediate scheduler traps, where Combine's crashes: its timer runs inside the call that schedules it")
    func timeoutImmediateTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            PassthroughSubject<Int, Never>().timeout(.seconds(1), scheduler: ImmediateScheduler.shared).subscribe(RecordingSubscriber<Int, Never>())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Sluice API violation: timeout's timer ran inside the scheduler call that scheduled it"))
    }

    @Test("delay: each signal reads now once and is scheduled after the interval; nothing else reads the clock")
    func delayCalls() {
        let scheduler = CallLoggingScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        defer { upstream.detachAll() }
        let recorder = TimingRecorder(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.delay(for: .nanoseconds(200), tolerance: .nanoseconds(5), scheduler: scheduler).subscribe(recorder)
        recorder.request(.max(1))
        #expect(scheduler.calls.isEmpty)
        _ = upstream.subscriptions[0].send(1)
        scheduler.advance(toNs: 200)
        upstream.subscriptions[0].send(completion: .finished)
        scheduler.advance(toNs: 400)
        #expect(scheduler.calls == [.now, .scheduleAfter(200, tolerance: 5), .now, .scheduleAfter(400, tolerance: 5)])
        #expect(recorder.values == [1] && recorder.completion == .finished)
        #expect(upstream.subscriptions[0].requests == [.max(1), .max(1), .max(1)])
    }

    @Test("timeout, delay: a cancel before the upstream's subscription is ignored, as Combine's; the subscription is taken")
    func cancelBeforeSubscriptionIgnored() throws {
        let transforms: [(String, (LatePublisher<Int, TimingFailure>) -> AnyPublisher<Int, TimingFailure>)] = [
            ("timeout", { $0.timeout(.seconds(1), scheduler: VirtualTimeScheduler()).eraseToAnyPublisher() }),
            ("delay", { $0.delay(for: .seconds(1), scheduler: VirtualTimeScheduler()).eraseToAnyPublisher() }),
        ]
        for (name, transform) in transforms {
            let upstream = LatePublisher<Int, TimingFailure>()
            defer { upstream.inner.detachAll() }
            let recorder = TimingRecorder(initialDemand: .max(1))
            defer { recorder.cancel() }
            transform(upstream).subscribe(recorder)
            try #require(upstream.waitingSubscribers.first?.raw as? any Subscription).cancel()
            upstream.release()
            #expect(upstream.inner.subscriptions[0].history == [.request(.max(1))], "\(name)")
            #expect(recorder.subscription != nil, "\(name)")
        }
    }
}
