import Testing
import Sluice
import SluiceTesting

/// The scheduled operators make the calls to their scheduler that Combine's make, in the same
/// order (code that wraps a scheduler, or counts its calls, sees the same), and behave as
/// Combine's at the edges of the subscription: before it, and at `request(.none)`.
@Suite("timing operators: Combine's calls to the scheduler", .timeLimit(.minutes(12)))
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

    @Test(
        "timeout on an immediate scheduler traps, where Combine's crashes: its timer runs inside the call that schedules it",
        .exitTest
    )
    func timeoutImmediateTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            PassthroughSubject<Int, Never>().timeout(.seconds(1), scheduler: ImmediateScheduler.shared).subscribe(RecordingSubscriber<Int, Never>())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Sluice API violation: timeout's timer ran inside the scheduler call that scheduled it"))
    }

    @Test("debounce on a scheduler of Combine's: each value reads now and minimumTolerance and schedules a repeating timer; the completion hops")
    func debounceCalls() {
        let scheduler = CallLoggingScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        defer { upstream.detachAll() }
        let recorder = TimingRecorder()
        upstream.debounce(for: .nanoseconds(13), scheduler: scheduler).subscribe(recorder)
        #expect(scheduler.calls.isEmpty && upstream.subscriptions[0].requests == [.unlimited])
        _ = upstream.subscriptions[0].send(1)
        scheduler.advance(toNs: 4)
        _ = upstream.subscriptions[0].send(2)
        scheduler.advance(toNs: 100)
        #expect(recorder.values == [2], "the first value's timer was cancelled")
        upstream.subscriptions[0].send(completion: .finished)
        #expect(scheduler.calls == [
            .now, .minimumTolerance, .scheduleRepeating(13, interval: 13, tolerance: 7),
            .now, .minimumTolerance, .scheduleRepeating(17, interval: 13, tolerance: 7),
            .schedule,
        ])
        scheduler.advance(toNs: 200)
        #expect(recorder.values == [2] && recorder.completion == .finished, "the repeating timer was cancelled when it delivered")
    }

    @Test("throttle on a scheduler of Combine's: reads now when made, at the subscription, at each value and emission; schedules now or after the interval")
    func throttleCalls() {
        let scheduler = CallLoggingScheduler()
        let upstream = ControllablePublisher<Int, TimingFailure>()
        defer { upstream.detachAll() }
        let recorder = TimingRecorder()
        defer { recorder.cancel() }
        upstream.throttle(for: .nanoseconds(60), scheduler: scheduler, latest: true).subscribe(recorder)
        #expect(scheduler.calls == [.now, .now])
        _ = upstream.subscriptions[0].send(1)
        #expect(scheduler.calls == [.now, .now, .now, .schedule])
        scheduler.advance(toNs: 0)
        _ = upstream.subscriptions[0].send(2)
        #expect(scheduler.calls == [.now, .now, .now, .schedule, .now, .now, .minimumTolerance, .scheduleAfter(60, tolerance: 7)])
        recorder.cancel()
        _ = upstream.subscriptions[0].send(3)
        scheduler.advance(toNs: 100)
        #expect(scheduler.calls.count == 8 && recorder.values == [1], "nothing is read or scheduled after the cancel")
    }

    /// `throttle` over `upstream` on Sluice's own virtual-time scheduler (`own`), which keeps
    /// one timer per burst, or on a scheduler of Combine's, which gets Combine's calls: the
    /// edges must not tell the two apart. The second result moves the clock past everything.
    static func throttled<P: Publisher>(_ upstream: P, own: Bool) -> (AnyPublisher<P.Output, P.Failure>, () -> Void) {
        if own {
            let scheduler = VirtualTimeScheduler()
            return (upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).eraseToAnyPublisher(), { scheduler.advance(by: .seconds(10)) })
        }
        let scheduler = CallLoggingScheduler()
        return (upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).eraseToAnyPublisher(), { scheduler.advance(toNs: 10_000_000_000) })
    }

    @Test("throttle asks its upstream before the downstream has its subscription, and ignores request(.none), as Combine's", arguments: [true, false])
    func throttleSubscriptionAndZeroRequest(own: Bool) {
        let upstream = ControllablePublisher<Int, TimingFailure>()
        defer { upstream.detachAll() }
        let requestedFirst = Locked(false)
        let subscription = Locked<(any Subscription)?>(nil)
        let subscriber = AnySubscriber<Int, TimingFailure>(receiveSubscription: { received in
            requestedFirst.withLock { $0 = upstream.subscriptions.first?.requests == [.unlimited] }
            subscription.withLock { $0 = received }
        })
        Self.throttled(upstream, own: own).0.subscribe(subscriber)
        #expect(requestedFirst.withLock { $0 })
        let taken = subscription.withLock { $0 }
        taken?.request(.none)
        taken?.request(.max(1))
        taken?.cancel()
        #expect(upstream.subscriptions[0].history == [.request(.unlimited), .cancel])
    }

    @Test("throttle over an upstream that completes inside the first request delivers the completion after the subscription", arguments: [true, false])
    func throttleCompletionInsideFirstRequest(own: Bool) {
        let recorder = TimingRecorder()
        let (throttled, advance) = Self.throttled(Just(1).setFailureType(to: TimingFailure.self), own: own)
        throttled.subscribe(recorder)
        advance()
        #expect(recorder.subscription != nil && recorder.completion == .finished)
    }

    @Test("throttle on an immediate scheduler: a completion inside the first request waits for the downstream's subscription")
    func throttleImmediateCompletionWaits() {
        let order = Locked<[String]>([])
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { _ in order.withLock { $0.append("subscription") } }, receiveValue: { _ in .none },
            receiveCompletion: { _ in order.withLock { $0.append("completion") } })
        // Just completes inside the request, before the subscriber has asked for its value.
        Just(1).throttle(for: .seconds(1), scheduler: ImmediateScheduler.shared, latest: false).subscribe(subscriber)
        #expect(order.withLock { $0 } == ["subscription", "completion"])
    }

    @Test("throttle cancelled before its upstream's subscription cancels that subscription when it comes, as Combine's", arguments: [true, false])
    func throttleCancelBeforeSubscription(own: Bool) throws {
        let upstream = LatePublisher<Int, TimingFailure>()
        defer { upstream.inner.detachAll() }
        let recorder = TimingRecorder()
        Self.throttled(upstream, own: own).0.subscribe(recorder)
        try #require(upstream.waitingSubscribers.first?.raw as? any Subscription).cancel()
        upstream.release()
        #expect(upstream.inner.subscriptions[0].history == [.cancel] && recorder.subscription == nil)
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

    @Test("timeout, delay, debounce: a cancel before the upstream's subscription is ignored, as Combine's; the subscription is taken")
    func cancelBeforeSubscriptionIgnored() throws {
        let transforms: [(String, (LatePublisher<Int, TimingFailure>) -> AnyPublisher<Int, TimingFailure>)] = [
            ("timeout", { $0.timeout(.seconds(1), scheduler: VirtualTimeScheduler()).eraseToAnyPublisher() }),
            ("delay", { $0.delay(for: .seconds(1), scheduler: VirtualTimeScheduler()).eraseToAnyPublisher() }),
            ("debounce", { $0.debounce(for: .seconds(1), scheduler: VirtualTimeScheduler()).eraseToAnyPublisher() }),
            ("debounce on a scheduler of Combine's", { $0.debounce(for: .seconds(1), scheduler: CallLoggingScheduler()).eraseToAnyPublisher() }),
        ]
        for (name, transform) in transforms {
            let upstream = LatePublisher<Int, TimingFailure>()
            defer { upstream.inner.detachAll() }
            let recorder = TimingRecorder(initialDemand: .max(1))
            defer { recorder.cancel() }
            transform(upstream).subscribe(recorder)
            try #require(upstream.waitingSubscribers.first?.raw as? any Subscription).cancel()
            upstream.release()
            let requested: Subscribers.Demand = name.hasPrefix("debounce") ? .unlimited : .max(1)
            #expect(upstream.inner.subscriptions[0].history == [.request(requested)], "\(name)")
            #expect(recorder.subscription != nil, "\(name)")
        }
    }
}
