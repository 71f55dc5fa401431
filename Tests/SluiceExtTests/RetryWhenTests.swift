import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("retryWhen (CombineExt)")
struct RetryWhenTests {
    @Test("Without a failure, values and the finish pass through, and the trigger is built once per subscriber")
    func passThrough() {
        let upstream = PassthroughSubject<Int, Oops>()
        var built = 0
        let retrying = upstream.retryWhen { failures -> AnyPublisher<Oops, Never> in
            built += 1
            return failures.filter { _ in false }.eraseToAnyPublisher()
        }
        let recorder = RecordingSubscriber<Int, Oops>()
        let other = RecordingSubscriber<Int, Oops>()
        retrying.subscribe(recorder)
        retrying.subscribe(other)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.values == [2])
        #expect(recorder.completion == .finished)
        #expect(other.completion == .finished)
        #expect(built == 2)
    }

    @Test("Each failure goes to the trigger and each trigger value resubscribes the upstream")
    func resubscribesPerTriggerValue() {
        let upstream = ControllablePublisher<Int, Oops>()
        defer { upstream.detachAll() }
        let seen = PassthroughSubject<Oops, Never>()
        let failures = RecordingSubscriber<Oops, Never>()
        seen.subscribe(failures)
        let recorder = RecordingSubscriber<Int, Oops>()
        upstream.retryWhen { $0.map { seen.send($0) } }.subscribe(recorder)
        upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(completion: .failure(Oops()))
        #expect(upstream.subscriptions.count == 2)
        upstream.subscriptions[1].send(completion: .failure(Oops()))
        #expect(upstream.subscriptions.count == 3)
        upstream.subscriptions[2].send(3)
        upstream.subscriptions[2].send(completion: .finished)
        #expect(recorder.values == [1, 3])
        #expect(recorder.completion == .finished)
        #expect(failures.values.count == 2)
        #expect(upstream.subscriptions.allSatisfy { $0.cancelCount == 0 })
        failures.cancel()
    }

    @Test("A trigger value retries only after a failure, and only once per failure")
    func triggerValuesWhileRunningAreIgnored() {
        let upstream = ControllablePublisher<Int, Oops>()
        defer { upstream.detachAll() }
        let retry = PassthroughSubject<Void, Never>()
        let recorder = RecordingSubscriber<Int, Oops>()
        upstream.retryWhen { _ in retry }.subscribe(recorder)
        retry.send()
        #expect(upstream.subscriptions.count == 1)
        upstream.subscriptions[0].send(completion: .failure(Oops()))
        #expect(upstream.subscriptions.count == 1)
        retry.send()
        retry.send()
        #expect(upstream.subscriptions.count == 2)
        #expect(recorder.completion == nil)
        recorder.cancel()
    }

    @Test("The trigger finishing finishes the stream and cancels the running upstream")
    func triggerFinishes() {
        let upstream = ControllablePublisher<Int, Oops>()
        defer { upstream.detachAll() }
        let retry = PassthroughSubject<Void, Never>()
        let recorder = RecordingSubscriber<Int, Oops>()
        upstream.retryWhen { _ in retry }.subscribe(recorder)
        retry.send(completion: .finished)
        #expect(recorder.completion == .finished)
        #expect(upstream.subscriptions[0].cancelCount == 1)
        upstream.subscriptions[0].send(1)
        #expect(recorder.values.isEmpty)
    }

    @Test("The trigger failing fails the stream with its error; an error of another type finishes it")
    func triggerFails() {
        let upstream = PassthroughSubject<Int, Oops>()
        let typed = RecordingSubscriber<Int, Oops>()
        let untyped = RecordingSubscriber<Int, Oops>()
        let foreign = RecordingSubscriber<Int, Oops>()
        upstream.retryWhen { $0.flatMap { Fail<Void, Oops>(error: $0) } }.subscribe(typed)
        upstream.retryWhen { $0.tryMap { failure -> Void in throw failure } }.subscribe(untyped)
        upstream.retryWhen { $0.tryMap { _ in throw Other() } }.subscribe(foreign)
        upstream.send(completion: .failure(Oops()))
        #expect(typed.completion == .failure(Oops()))
        #expect(untyped.completion == .failure(Oops()))
        #expect(foreign.completion == .finished)
    }

    @Test("The downstream's demand not yet met is requested from each new upstream subscription")
    func demandAcrossRetries() {
        let upstream = ControllablePublisher<Int, Oops>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .max(3))
        upstream.retryWhen { $0.map { _ in () } }.subscribe(recorder)
        #expect(upstream.subscriptions[0].requests == [.max(3)])
        upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(completion: .failure(Oops()))
        #expect(upstream.subscriptions[1].requests == [.max(2)])
        recorder.request(.max(1))
        #expect(upstream.subscriptions[1].requests == [.max(2), .max(1)])
        #expect(upstream.subscriptions[0].requests == [.max(3)])
        recorder.cancel()
        #expect(upstream.subscriptions[1].cancelCount == 1)
    }

    @Test("Thousands of retries that fail at once run in a loop, not nested, and stop when the trigger finishes")
    func synchronousRetriesStayFlat() {
        var attempts = 0
        let failing = Deferred { () -> Fail<Int, Oops> in
            attempts += 1
            return Fail(error: Oops())
        }
        let recorder = RecordingSubscriber<Int, Oops>()
        failing.retryWhen { $0.prefix(10_000) }.subscribe(recorder)
        #expect(attempts == 10_000)
        #expect(recorder.completion == .finished)
        // The attempt count is what a nesting retry changes: its last trigger value
        // resubscribes before the finish is seen. (No stack-depth check: Sluice's
        // PassthroughSubject already queues a send made inside a send, so it could not fail,
        // and under Address Sanitizer locals live on a fake stack.)
    }

    @Test("After a cancel, running or waiting for the trigger, nothing keeps the downstream, upstream or trigger alive")
    func cancelReleases() {
        var weak: [Weak<AnyObject>] = []
        do {
            let upstream = PassthroughSubject<Int, Oops>()
            let retry = PassthroughSubject<Void, Never>()
            let running = RecordingSubscriber<Int, Oops>()
            let waiting = RecordingSubscriber<Int, Oops>()
            let objects: [AnyObject] = [upstream, retry, running, waiting]
            weak = objects.map { Weak($0) }
            upstream.retryWhen { _ in retry }.subscribe(running)
            running.cancel()
            upstream.retryWhen { _ in retry }.subscribe(waiting)
            upstream.send(completion: .failure(Oops()))
            waiting.cancel()
            #expect(running.completion == nil)
            #expect(waiting.completion == nil)
        }
        #expect(weak.allSatisfy { $0.object == nil })
    }
}

private struct Other: Error {}
