import Dispatch
import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

@Suite("receive(on:)", .timeLimit(.minutes(12)))
struct ReceiveOnTests {
    @Test("the subscription arrives at once; each value and the completion waits for the scheduler")
    func signalsWaitForTheScheduler() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>()
        defer { recorder.cancel() }
        subject.receive(on: scheduler).subscribe(recorder)
        #expect(recorder.events == [.subscription])
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(Boom()))
        #expect(recorder.events == [.subscription])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .completion(.failure(Boom()))])
        #expect(recorder.violations.isEmpty)
    }

    @Test("signals from the upstream before its subscription or after its completion are dropped")
    func signalsOutOfTurnAreDropped() {
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        let hop = HeldSubscriber<Int, Never>()
        hop.publisher.receive(on: scheduler).subscribe(recorder)
        #expect(hop.subscriber.receive(1) == .none)
        hop.subscriber.receive(completion: .finished)
        hop.subscriber.receive(subscription: Subscriptions.empty)
        #expect(hop.subscriber.receive(2) == .none)
        hop.subscriber.receive(completion: .finished)
        #expect(hop.subscriber.receive(3) == .none)
        hop.subscriber.receive(completion: .finished)
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(2), .completion(.finished)])
    }

    @Test("a subscription that comes after the downstream cancelled is left alone, as in Combine")
    func subscriptionAfterCancelIsIgnored() throws {
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Never>()
        let hop = HeldSubscriber<Int, Never>()
        hop.publisher.receive(on: scheduler).subscribe(recorder)
        try #require(hop.raw as? any Cancellable).cancel()
        let late = ControllablePublisher<Int, Never>()
        late.subscribe(hop.subscriber)
        #expect(late.subscriptions[0].history.isEmpty)
        #expect(recorder.events.isEmpty)
        late.detachAll()
    }

    @Test("demand passes upstream as asked: a limited demand stays limited across the hop")
    func demandIsKeptEndToEnd() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .none)
        defer { recorder.cancel() }
        upstream.receive(on: scheduler).subscribe(recorder)
        scheduler.advance()
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.max(2)])
        _ = subscription.send(1)
        _ = subscription.send(2)
        scheduler.advance()
        #expect(recorder.values == [1, 2])
        recorder.request(.max(3))
        #expect(subscription.requests == [.max(2), .max(3)])
        #expect(recorder.violations.isEmpty)
    }

    @Test("the demand a value's receive returns goes upstream after that delivery")
    func returnedDemandGoesUpstream() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        defer { recorder.cancel() }
        upstream.receive(on: scheduler).subscribe(recorder)
        scheduler.advance()
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(1)
        #expect(subscription.requests == [.max(1)], "nothing returned before the scheduler delivers")
        scheduler.advance()
        #expect(subscription.requests == [.max(1), .max(1)])
    }

    @Test("the demand for a value queued before the upstream's completion still goes upstream, as in Combine")
    func demandOfAValueQueuedBeforeTheCompletion() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(3))
        defer { recorder.cancel() }
        upstream.receive(on: scheduler).subscribe(recorder)
        _ = upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(completion: .finished)
        scheduler.advance()
        #expect(recorder.values == [1] && recorder.completion == .finished)
        #expect(upstream.subscriptions[0].requests == [.max(1), .max(3)])
        #expect(upstream.subscriptions[0].cancelCount == 0)
    }

    @Test("a cancel before the scheduler runs: nothing queued is delivered, the upstream is cancelled, the downstream released")
    func cancelDropsWhatIsQueued() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var recorder: RecordingSubscriber<Int, Never>? = RecordingSubscriber()
        weak let released = recorder
        subject.receive(on: scheduler).subscribe(recorder!)
        scheduler.advance()
        subject.send(1)
        recorder!.cancel()
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(recorder!.events == [.subscription])
        recorder = nil
        #expect(released == nil)
    }

    @Test("after the completion is delivered the downstream is released, and late requests go nowhere")
    func completionReleasesTheDownstream() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        var recorder: RecordingSubscriber<Int, Never>? = RecordingSubscriber(initialDemand: .max(1))
        weak let released = recorder
        upstream.receive(on: scheduler).subscribe(recorder!)
        scheduler.advance()
        _ = upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(completion: .finished)
        scheduler.advance()
        #expect(recorder!.values == [1] && recorder!.completion == .finished)
        recorder!.request(.max(1))
        #expect(upstream.subscriptions[0].requests == [.max(1)])
        recorder = nil
        #expect(released == nil)
    }

    @Test("a cancel inside receive stops the values queued behind it")
    func cancelInsideReceive() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        recorder.onValue { [weak recorder] value in
            if value == 2 { recorder?.cancel() }
            return .none
        }
        subject.receive(on: scheduler).subscribe(recorder)
        scheduler.advance()
        for value in 1...5 { subject.send(value) }
        scheduler.advance()
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil && recorder.violations.isEmpty)
    }

    @Test("each signal is one action of the scheduler, so work scheduled between two values runs between them")
    func eachSignalIsOneAction() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        subject.receive(on: scheduler).subscribe(recorder)
        for value in 0..<3 { subject.send(value) }
        let seen = Locked<Int?>(nil)
        scheduler.schedule { seen.withLock { $0 = recorder.valueCount } }
        subject.send(3)
        #expect(scheduler.scheduledCount == 5, "one action per value, and the other work")
        scheduler.advance()
        #expect(seen.withLock { $0 } == 3)
        #expect(recorder.values == [0, 1, 2, 3])
    }

    @Test("on a dispatch queue one action delivers what is queued, in runs of 1,024, so other work on the queue runs between runs")
    func coalescesOnSluicesOwnSchedulers() async {
        let queue = DispatchQueue(label: "receive-on-coalescing")
        let release = DispatchSemaphore(value: 0)
        queue.async { _ = release.wait(timeout: .now() + 60) }  // holds the queue while values queue up
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        subject.receive(on: queue).subscribe(recorder)
        for value in 0..<3000 { subject.send(value) }
        let seen = Locked<Int?>(nil)
        queue.async { seen.withLock { $0 = recorder.valueCount } }
        release.signal()
        await recorder.waitForValues(count: 3000)
        #expect(seen.withLock { $0 } == 1024)
        #expect(recorder.values == Array(0..<3000))
    }

    @Test("values arrive on the queue, in order and one at a time, while many threads send")
    func concurrentSendersOnARealQueue() async {
        let queue = DispatchQueue(label: "receive-on", attributes: .concurrent)
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let subject = PassthroughSubject<Int, Never>()
        let offQueue = Locked(0)
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        recorder.onValue { _ in
            if DispatchQueue.getSpecific(key: key) != 7 { offQueue.withLock { $0 += 1 } }
            return .none
        }
        subject.receive(on: queue).subscribe(recorder)
        await recorder.wait { $0.contains(.subscription) }
        let perThread = 1_000
        runConcurrently(threads: 4) { thread in
            for index in 0..<perThread { subject.send(thread * 1_000_000 + index) }
        }
        subject.send(completion: .finished)
        _ = await recorder.waitForCompletion()
        #expect(recorder.valueCount == 4 * perThread)
        #expect(offQueue.withLock { $0 } == 0)
        #expect(recorder.violations.isEmpty, "no overlapping signals on a concurrent queue")
        for thread in 0..<4 {
            let mine = recorder.values.filter { $0 / 1_000_000 == thread }
            #expect(mine == (0..<perThread).map { thread * 1_000_000 + $0 }, "each sender's order is kept")
        }
    }

    @Test("describes itself as Combine's does")
    func description() {
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        Just(1).receive(on: ImmediateScheduler.shared).subscribe(recorder)
        #expect(recorder.values == [1])
        #expect(String(describing: recorder.subscription!) == "ReceiveOn")
    }
}

