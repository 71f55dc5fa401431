import Sluice
import SluiceTesting
import Testing

/// A `CancellationError` that a subscription's own `cancel()` provoked (through the task's
/// cooperative cancellation) is never delivered as a failure; one thrown without a cancel is
/// an ordinary failure and is delivered. For each publisher made from async code.
@Suite(.timeLimit(.minutes(12))) struct CancellationErrorDeliveryTests {
    /// Subscribes through a probe, waits for the first value and for `park` to wait, cancels,
    /// then waits for `threw` (the async code threw) and for the task to let go of the
    /// subscriber. Returns what the subscriber received.
    private func cancelWhileParked(
        _ publisher: some Publisher<Int, any Error>, park: CancellationPark, threw: Gate
    ) async -> [RecordingSubscriber<Int, any Error>.Event] {
        let recorder = RecordingSubscriber<Int, any Error>()
        let released = Gate()
        publisher.subscribe(ProbedSubscriber(recorder, released: released))
        await park.parked.wait()
        recorder.cancel()
        await threw.wait()
        await released.wait()
        return recorder.events
    }

    /// Waits for the task to be cancelled, then throws the `CancellationError` that shows it.
    @Sendable private static func throwOnCancellation(_ park: CancellationPark, _ threw: Gate) async throws {
        await park.waitForCancellation()
        do { try Task.checkCancellation() } catch { threw.open(); throw error }
    }

    @Test("AsyncSequence.publisher: a CancellationError thrown by next() because of cancel() is not delivered")
    func sequenceCancellationErrorCausedByCancelIsNotDelivered() async {
        let park = CancellationPark()
        let threw = Gate()
        let sequence = ClosureSequence<Int> { call in
            if call == 0 { return 1 }
            try await Self.throwOnCancellation(park, threw)
            return 2
        }
        let events = await cancelWhileParked(sequence.publisher, park: park, threw: threw)
        #expect(events.count == 2)   // the subscription and 1; no completion
        #expect(events.last.map { if case .value(1) = $0 { true } else { false } } == true)
    }

    @Test("AsyncSequence.publisher: a CancellationError thrown by next() without a cancel is delivered")
    func sequenceCancellationErrorWithoutCancelIsDelivered() async {
        let recorder = RecordingSubscriber<Int, any Error>()
        ClosureSequence<Int> { _ in throw CancellationError() }.publisher.subscribe(recorder)
        #expect(await recorder.waitForCompletion()?.isCancellationFailure == true)
        #expect(recorder.values.isEmpty)
    }

    @Test("Producer: a CancellationError thrown by the body because of cancel() is not delivered")
    func producerCancellationErrorCausedByCancelIsNotDelivered() async {
        let park = CancellationPark()
        let threw = Gate()
        let producer = Producer<Int, any Error> { sender in
            await sender.send(1)
            try await Self.throwOnCancellation(park, threw)
        }
        let events = await cancelWhileParked(producer, park: park, threw: threw)
        #expect(events.count == 2)   // the subscription and 1; no completion
        #expect(events.last.map { if case .value(1) = $0 { true } else { false } } == true)
    }

    @Test("Producer: a CancellationError thrown by the body without a cancel is delivered")
    func producerCancellationErrorWithoutCancelIsDelivered() async {
        let recorder = RecordingSubscriber<Int, any Error>()
        Producer<Int, any Error> { sender in
            await sender.send(1)
            throw CancellationError()
        }.subscribe(recorder)
        #expect(await recorder.waitForCompletion()?.isCancellationFailure == true)
        #expect(recorder.values == [1])
    }

    @Test("AsyncFuture: a CancellationError thrown by the operation because of cancel() is not delivered")
    func futureCancellationErrorCausedByCancelIsNotDelivered() async {
        let park = CancellationPark()
        let threw = Gate()
        let future = AsyncFuture<Int, any Error> {
            try await Self.throwOnCancellation(park, threw)
            return 1
        }
        let recorder = RecordingSubscriber<Int, any Error>()
        let released = Gate()
        future.subscribe(ProbedSubscriber(recorder, released: released))
        await park.parked.wait()
        recorder.cancel()
        await threw.wait()
        await released.wait()
        #expect(recorder.events.count == 1)   // the subscription only
    }

    @Test("AsyncFuture: a CancellationError thrown by the operation without a cancel is delivered")
    func futureCancellationErrorWithoutCancelIsDelivered() async {
        let recorder = RecordingSubscriber<Int, any Error>()
        AsyncFuture<Int, any Error> { throw CancellationError() }.subscribe(recorder)
        #expect(await recorder.waitForCompletion()?.isCancellationFailure == true)
        #expect(recorder.values.isEmpty)
    }
}
