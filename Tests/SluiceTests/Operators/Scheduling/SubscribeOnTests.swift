import Dispatch
import Testing
import Sluice
import SluiceTesting

@Suite("subscribe(on:)", .timeLimit(.minutes(12)))
struct SubscribeOnTests {
    @Test("the upstream is subscribed, asked and cancelled only when the scheduler runs; values pass straight through")
    func upstreamCallsWaitForTheScheduler() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        defer { recorder.cancel() }
        upstream.subscribe(on: scheduler).subscribe(recorder)
        #expect(upstream.subscriptions.isEmpty)
        scheduler.advance()
        let subscription = upstream.subscriptions[0]
        #expect(recorder.events == [.subscription])
        #expect(subscription.requests == [.max(2)], "the request made inside receive(subscription:) ran next on the scheduler")
        _ = subscription.send(1)
        #expect(recorder.values == [1], "values are not moved")
        recorder.request(.max(1))
        recorder.request(.max(4))
        #expect(subscription.requests == [.max(2)])
        scheduler.advance()
        #expect(subscription.requests == [.max(2), .max(1), .max(4)], "each request is an action of its own, as in Combine")
        recorder.cancel()
        _ = subscription.send(2)
        #expect(recorder.values == [1], "a cancel stops the values at once")
        #expect(subscription.cancelCount == 0)
        scheduler.advance()
        #expect(subscription.cancelCount == 1)
        #expect(recorder.violations.isEmpty)
    }

    @Test("a cancel before the scheduler subscribed: the upstream's subscription is cancelled as it arrives, the downstream hears nothing")
    func cancelBeforeSubscribing() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let cancellable = upstream.subscribe(on: scheduler).sink { _ in Issue.record("no value expected") }
        cancellable.cancel()
        scheduler.advance()
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscriptions[0].cancelCount == 1)
        #expect(upstream.subscriptions[0].requests == [])
    }

    @Test("request(.none) goes upstream on the scheduler like any demand, as Combine passes it")
    func zeroDemandIsPassedOn() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        recorder.request(.none)
        recorder.request(.max(1))
        #expect(scheduler.scheduledCount == 2)
        scheduler.advance()
        #expect(upstream.subscriptions[0].requests == [.none, .max(1)])
        recorder.cancel()
        scheduler.advance()
    }

    @Test("signals before the upstream's subscription are dropped; a subscription after the cancel is left alone")
    func signalsOutOfTurn() throws {
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Never>()
        let hop = HeldSubscriber<Int, Never>()
        hop.publisher.subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        #expect(hop.subscriber.receive(1) == .none)
        hop.subscriber.receive(completion: .finished)
        #expect(recorder.events.isEmpty)
        try #require(hop.raw as? any Cancellable).cancel()
        scheduler.advance()
        let late = ControllablePublisher<Int, Never>()
        late.subscribe(hop.subscriber)
        #expect(late.subscriptions[0].history.isEmpty)
        #expect(recorder.events.isEmpty)
        late.detachAll()
    }

    @Test("a cancel made before the upstream completed still reaches it on the scheduler, as in Combine")
    func cancelAfterTheUpstreamCompletedStillGoesUp() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        upstream.subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        recorder.cancel()
        upstream.subscriptions[0].send(completion: .finished)
        #expect(recorder.events == [.subscription])
        scheduler.advance()
        #expect(upstream.subscriptions[0].cancelCount == 1)
    }

    @Test("the completion passes through and releases the downstream")
    func completionReleasesTheDownstream() {
        let scheduler = VirtualTimeScheduler()
        var recorder: RecordingSubscriber<Int, Never>? = RecordingSubscriber()
        weak let released = recorder
        (1...3).publisher.subscribe(on: scheduler).subscribe(recorder!)
        scheduler.advance()
        #expect(recorder!.values == [1, 2, 3] && recorder!.completion == .finished)
        recorder = nil
        #expect(released == nil)
    }

    @Test("a synchronous publisher produces its values on the queue")
    func producesOnTheQueue() async {
        let queue = DispatchQueue(label: "subscribe-on")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 3)
        let onQueue = Locked<[Bool]>([])
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        recorder.onValue { _ in
            onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == 3) }
            return .none
        }
        (1...100).publisher.subscribe(on: queue).subscribe(recorder)
        _ = await recorder.waitForCompletion()
        #expect(recorder.values == Array(1...100))
        #expect(onQueue.withLock { $0 }.allSatisfy { $0 })
    }

    @Test("describes itself as Combine's does")
    func description() {
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        Just(1).subscribe(on: ImmediateScheduler.shared).subscribe(recorder)
        #expect(recorder.values == [1])
        #expect(String(describing: recorder.subscription!) == "SubscribeOn")
    }
}

extension SubscribeOnTests {
    @Test(
        "a request made from inside the upstream's request, on a scheduler that runs it at once, traps, as Combine's crashes",
        .exitTest
    )
    func requestInsideTheUpstreamsRequestTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            recorder.onValue { [weak recorder] _ in
                recorder?.request(.max(1))
                return .none
            }
            (0..<3).publisher.subscribe(on: ImmediateScheduler.shared).subscribe(recorder)
            recorder.request(.max(1))
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("subscribe(on:) was asked for more from inside its upstream's request(_:)"))
        }
    }

    @Test("the same request on a scheduler that runs it later, and a cancel from inside the request, are taken")
    func reentrantCallsOnALaterSchedulerAreTaken() {
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        recorder.onValue { [weak recorder] _ in
            recorder?.request(.max(1))
            return .none
        }
        (0..<3).publisher.subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        recorder.request(.max(1))
        scheduler.advance()
        #expect(recorder.values == [0, 1, 2])
        #expect(recorder.completion == .finished)

        // A cancel from inside the upstream's request runs at once on the immediate scheduler.
        let cancelling = RecordingSubscriber<Int, Never>(initialDemand: .none)
        cancelling.onValue { [weak cancelling] _ in
            cancelling?.cancel()
            return .none
        }
        (0..<3).publisher.subscribe(on: ImmediateScheduler.shared).subscribe(cancelling)
        cancelling.request(.max(1))
        #expect(cancelling.values == [0])
        #expect(cancelling.violations.isEmpty)
    }
}
