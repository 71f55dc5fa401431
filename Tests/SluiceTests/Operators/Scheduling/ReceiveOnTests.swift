import Dispatch
import Testing
@_spi(Internals) import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

@Suite("receive(on:)", .timeLimit(.minutes(6)))
struct ReceiveOnTests {
    @Test("every signal, the subscription first, reaches the downstream only when the scheduler runs")
    func signalsWaitForTheScheduler() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>()
        defer { recorder.cancel() }
        subject.receive(on: scheduler).subscribe(recorder)
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.subscription])
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(Boom()))
        #expect(recorder.values == [])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .completion(.failure(Boom()))])
        #expect(recorder.violations.isEmpty)
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

    @Test("a long queue is drained in runs, so that other work on the scheduler gets its turn")
    func drainsYieldTheScheduler() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        subject.receive(on: scheduler).subscribe(recorder)
        scheduler.advance()
        for value in 0..<3000 { subject.send(value) }
        let seen = Locked<Int?>(nil)
        scheduler.schedule { seen.withLock { $0 = recorder.valueCount } }
        scheduler.advance()
        let countWhenOtherWorkRan = seen.withLock { $0 }
        #expect(countWhenOtherWorkRan == 1024)
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
