import Sluice
import SluiceTesting
import Testing

/// An owner of a sequence that is not `Sendable` (an actor's ``SequenceOwner``, the main
/// actor's ``MainActorModel``) and the publisher of that sequence: what
/// ``OwnedSequenceContract`` checks, the same for either owner.
protocol SequenceOwning<Failure>: Sendable {
    associatedtype Failure: Error
    associatedtype Published: Publisher<Int, Failure>
    /// The owner's sequence as a publisher.
    func published(priority: TaskPriority?) -> Published
    /// How many times the sequence was made.
    var sequencesMade: Int { get async }
    /// How many `next()` calls the sequence's iterator got.
    var nextCalls: Int { get async }
    /// Opens when the iterator of the sequence is gone: its iteration is over.
    var iteratorReleased: Gate { get }
}

/// The body of an owned sequence: the value of each `next()` call, given the number of earlier
/// calls; nil ends the sequence.
typealias OwnedSequenceBody<Failure: Error> = @Sendable (Int) async throws(Failure) -> Int?

/// `AsyncSequencePublisher`'s contract for a sequence made and iterated where its owner
/// isolates it, whichever that owner is. Each check takes the way to make an owner around a
/// body, and keeps every assertion the two suites made before they shared it.
enum OwnedSequenceContract {
    static func publishesInOrder<Owner: SequenceOwning<Never>>(_ make: (@escaping OwnedSequenceBody<Never>) async -> Owner) async {
        let owner = await make { call in call < 100 ? call : nil }
        let recorder = RecordingSubscriber<Int, Never>()
        owner.published(priority: nil).subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values == Array(0..<100))
        #expect(recorder.violations.isEmpty)
        #expect(await owner.sequencesMade == 1)
    }

    static func callsNextOnlyWithinDemand<Owner: SequenceOwning<Never>>(_ make: (@escaping OwnedSequenceBody<Never>) async -> Owner) async {
        let entered = Gate(), hold = Gate()
        let owner = await make { call in
            if call == 1 {
                entered.open()
                await hold.wait()
            }
            return call < 10 ? call : nil
        }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        owner.published(priority: nil).subscribe(recorder)
        await recorder.waitForValues(count: 1)
        // After a delivery the task stays on the owner's actor until it suspends for demand,
        // so a read-ahead `next()` would be counted before this read gets the actor.
        #expect(await owner.nextCalls == 1)
        recorder.request(.max(2))
        await entered.wait()
        // The second `next()` is held with demand for two: no other call starts meanwhile.
        #expect(await owner.nextCalls == 2)
        hold.open()
        await recorder.waitForValues(count: 3)
        #expect(await owner.nextCalls == 3)
        recorder.request(.unlimited)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(await owner.nextCalls == 11)
        #expect(recorder.values == Array(0..<10))
        #expect(recorder.violations.isEmpty)
    }

    static func startsAtTheFirstDemand<Owner: SequenceOwning<Never>>(_ make: (@escaping OwnedSequenceBody<Never>) async -> Owner) async {
        let calls = Tripwire()  // a `next()` call before the first demand trips it
        let owner = await make { call in
            calls.hit()
            return call < 3 ? call : nil
        }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        owner.published(priority: nil).subscribe(recorder)
        #expect(recorder.events == [.subscription])
        calls.allow(1)
        recorder.request(.max(1))
        await recorder.waitForValues(count: 1)
        #expect(await owner.sequencesMade == 1)
        #expect(recorder.values == [0])
        recorder.cancel()
        await owner.iteratorReleased.wait()  // the iteration is over: the counts are final
        #expect(calls.premature == 0, "the sequence was iterated before the first demand")
        #expect(await owner.nextCalls == 1)
    }

    static func deliversTheTypedFailure<Owner: SequenceOwning<TestError>>(_ make: (@escaping OwnedSequenceBody<TestError>) async -> Owner) async {
        let owner = await make { (call) throws(TestError) -> Int? in
            if call < 2 { return call }
            throw TestError(code: 7)
        }
        let recorder = RecordingSubscriber<Int, TestError>()   // Failure == TestError
        owner.published(priority: nil).subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .failure(TestError(code: 7)))
        #expect(recorder.values == [0, 1])
    }

    static func cancelWhileSuspendedDeliversNothing<Owner: SequenceOwning<any Error>>(_ make: (@escaping OwnedSequenceBody<any Error>) async -> Owner) async {
        let park = CancellationPark()
        let threw = Gate()
        let owner = await make { call in
            if call == 0 { return 0 }
            await park.waitForCancellation()
            do { try Task.checkCancellation() } catch { threw.open(); throw error }
            return 1
        }
        let recorder = RecordingSubscriber<Int, any Error>()
        let released = Gate()
        owner.published(priority: nil).subscribe(ProbedSubscriber(recorder, released: released))
        await park.parked.wait()
        recorder.cancel()
        await threw.wait()   // cooperative cancellation reached next(): its task was cancelled
        await released.wait()
        await owner.iteratorReleased.wait()   // the iteration is over: nothing can follow
        #expect(recorder.values == [0])
        #expect(!recorder.hasCompleted)
        #expect(recorder.violations.isEmpty)
    }

    static func runsAtTheGivenPriority<Owner: SequenceOwning<Never>>(_ make: (@escaping OwnedSequenceBody<Never>) async -> Owner) async {
        // Both differ from the test's own priority, which an ignored argument would inherit.
        for priority in [TaskPriority.low, .high] {
            let seen = Locked<TaskPriority?>(nil)
            let owner = await make { call in
                if call == 0 { seen.withLock { $0 = Task.currentPriority } }
                return call == 0 ? 0 : nil
            }
            let recorder = RecordingSubscriber<Int, Never>()
            let publisher = owner.published(priority: priority)
            publisher.subscribe(recorder)
            #expect(await recorder.waitForCompletion() == .finished)
            #expect(seen.withLock { $0 } == priority)
        }
    }

    static func describesItsSubscription<Owner: SequenceOwning<Never>>(_ make: (@escaping OwnedSequenceBody<Never>) async -> Owner) async {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        await make { _ in nil }.published(priority: nil).subscribe(recorder)
        #expect(String(describing: recorder.subscription!) == "AsyncSequence")
        recorder.cancel()
    }
}
