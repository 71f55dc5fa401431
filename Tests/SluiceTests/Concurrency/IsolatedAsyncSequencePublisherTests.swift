import Sluice
import SluiceTesting
import Testing
import Dispatch

/// The state of an actor's sequence: a class, so neither it nor the sequence is `Sendable`,
/// and only the actor that owns it may use it. Each `next()` checks (trapping) that it runs
/// on the owner, counts, then runs `body` with the number of earlier calls.
final class OwnedCursor<Failure: Error> {
    unowned let owner: any Actor
    let body: @Sendable (Int) async throws(Failure) -> Int?
    /// Opens when the iterator of the sequence is gone: its iteration is over.
    let iteratorReleased: Gate
    private(set) var calls = 0
    /// Calls whose `isolation` argument was not the owner.
    private(set) var callsWithOtherIsolation = 0

    init(owner: any Actor, iteratorReleased: Gate, body: @escaping @Sendable (Int) async throws(Failure) -> Int?) {
        self.owner = owner
        self.iteratorReleased = iteratorReleased
        self.body = body
    }

    func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Int? {
        owner.assertIsolated("next() runs off the actor that owns the sequence")
        if actor !== owner { callsWithOtherIsolation += 1 }
        let call = calls
        calls += 1  // counted on entry, so that a call still in progress is counted
        return try await body(call)
    }
}

@available(*, unavailable)
extension OwnedCursor: Sendable {}

/// An actor's sequence: its iterator keeps its state in the actor's ``OwnedCursor``.
struct OwnedSequence<Failure: Error>: AsyncSequence {
    typealias Element = Int
    let cursor: OwnedCursor<Failure>

    struct AsyncIterator: AsyncIteratorProtocol {
        let cursor: OwnedCursor<Failure>
        let probe: DeinitProbe

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Int? {
            try await cursor.next(isolation: actor)
        }

        mutating func next() async throws(Failure) -> Int? { try await cursor.next(isolation: nil) }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(cursor: cursor, probe: DeinitProbe(cursor.iteratorReleased))
    }
}

@available(*, unavailable)
extension OwnedSequence: Sendable {}

/// An actor that makes a sequence from its state and keeps it, as an actor keeps a stored
/// `AsyncStream` (one consumer): the sequence is not `Sendable`, so `AsyncSequencePublisher`
/// cannot take it, and it can be iterated only here.
actor SequenceOwner<Failure: Error> {
    private let body: @Sendable (Int) async throws(Failure) -> Int?
    private var cursor: OwnedCursor<Failure>?
    /// How many times ``sequence()`` ran.
    private(set) var sequencesMade = 0
    /// Opens when the iterator of the sequence is gone: its iteration is over.
    nonisolated let iteratorReleased = Gate()

    init(_ body: @escaping @Sendable (Int) async throws(Failure) -> Int?) { self.body = body }

    /// The actor's sequence, made on first use and kept.
    func sequence() -> OwnedSequence<Failure> {
        assertIsolated("the sequence is made off the actor that owns it")
        sequencesMade += 1
        let cursor = self.cursor ?? OwnedCursor(owner: self, iteratorReleased: iteratorReleased, body: body)
        self.cursor = cursor
        return OwnedSequence(cursor: cursor)
    }

    var nextCalls: Int { cursor?.calls ?? 0 }
    var callsWithOtherIsolation: Int { cursor?.callsWithOtherIsolation ?? 0 }

    /// The actor's sequence as a publisher.
    nonisolated func published(priority: TaskPriority? = nil)
        -> IsolatedAsyncSequencePublisher<SequenceOwner, OwnedSequence<Failure>>
    {
        publisher(priority: priority) { owner in owner.sequence() }
    }
}

/// A serial executor on a dispatch queue that a test can pause: jobs sent to it wait until it
/// resumes. `enqueued` opens at the first job.
final class PausableExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "PausableExecutor")
    let enqueued = Gate()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        enqueued.open()
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func pause() { queue.suspend() }
    func resume() { queue.resume() }
}

/// An actor running on a ``PausableExecutor``, with a one-element sequence.
actor PausableOwner {
    nonisolated let executor = PausableExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private(set) var sequencesMade = 0

    func sequence() -> OwnedSequence<Never> {
        sequencesMade += 1
        return OwnedSequence(cursor: OwnedCursor(owner: self, iteratorReleased: Gate()) { $0 == 0 ? 0 : nil })
    }
}

/// `IsolatedAsyncSequencePublisher` / `actor.publisher(iterating:)`: a sequence that is not
/// `Sendable`, made and kept by an actor, published with `AsyncSequencePublisher`'s contract.
///
/// The limit only stops a hang: the 10,000-round race takes about 16 s alone under Thread
/// Sanitizer, but 77–90 s inside CI's full sanitizer run, and more on a loaded machine (2
/// minutes was exceeded once that way).
@Suite(.timeLimit(.minutes(12)))
struct IsolatedAsyncSequencePublisherTests {
    @Test("an actor's non-Sendable sequence is published: every element in order, then finished")
    func actorOwnedNonSendableSequenceIsPublishedInOrder() async {
        await OwnedSequenceContract.publishesInOrder { SequenceOwner<Never>($0) }
    }

    @Test("makeSequence and every next() run isolated to the actor, next() with the actor as its isolation")
    func factoryAndNextRunOnTheActor() async {
        let owner = SequenceOwner<Never> { call in call < 5 ? call : nil }
        let recorder = RecordingSubscriber<Int, Never>()
        let publisher = IsolatedAsyncSequencePublisher(iteratingOn: owner) { owner in
            owner.assertIsolated("makeSequence runs off the actor")
            return owner.sequence()
        }
        #expect(publisher.actor === owner)
        publisher.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        // Each call also checked `owner.assertIsolated()`: five elements and the end.
        #expect(await owner.nextCalls == 6)
        #expect(await owner.callsWithOtherIsolation == 0)
    }

    @Test("next() is called only within the demand: none while demand is zero, none beside one in progress")
    func nextIsCalledOnlyWithinDemand() async {
        await OwnedSequenceContract.callsNextOnlyWithinDemand { SequenceOwner<Never>($0) }
    }

    @Test("the sequence is made and iterated at the first demand, not at subscribe")
    func iterationStartsAtTheFirstDemand() async {
        await OwnedSequenceContract.startsAtTheFirstDemand { SequenceOwner<Never>($0) }
    }

    @Test("the sequence's typed failure is the publisher's, and is delivered")
    func theSequencesTypedFailureIsDelivered() async {
        await OwnedSequenceContract.deliversTheTypedFailure { SequenceOwner<TestError>($0) }
    }

    @Test("cancel while next() is suspended cancels the task; the CancellationError it causes is not delivered")
    func cancelWhileSuspendedInNextCancelsTheTaskAndDeliversNothing() async {
        await OwnedSequenceContract.cancelWhileSuspendedDeliversNothing { SequenceOwner<any Error>($0) }
    }

    @Test("a cancel that comes before the task reaches the actor: the sequence is never made")
    func cancelBeforeTheTaskReachesTheActorNeverMakesTheSequence() async {
        let owner = PausableOwner()
        owner.executor.pause()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        owner.publisher { $0.sequence() }.subscribe(recorder)
        recorder.request(.max(1))   // starts the task, which waits for the paused actor
        await owner.executor.enqueued.wait()
        recorder.cancel()
        owner.executor.resume()
        // Enqueued after the task's job, so it runs after it.
        #expect(await owner.sequencesMade == 0)
        #expect(recorder.events == [.subscription])
    }

    @Test("cancel racing a request and the delivery: within demand, at most one value in flight once cancel returns, no completion")
    func cancelRacingRequestNeverExceedsDemandOrSignalsAfterCancel() async {
        await raceCancelAgainstRequestAndDelivery { body in SequenceOwner<any Error>(body).published() }
    }

    @Test("priority: the iterating task runs at the given priority")
    func iterationRunsAtTheGivenPriority() async {
        for priority in [TaskPriority.low, .high] {
            #expect(SequenceOwner<Never> { _ in nil }.published(priority: priority).priority == priority)
        }
        await OwnedSequenceContract.runsAtTheGivenPriority { SequenceOwner<Never>($0) }
    }

    @Test func subscriptionDescribesItselfAsAsyncSequence() async {
        await OwnedSequenceContract.describesItsSubscription { SequenceOwner<Never>($0) }
    }
}

extension SequenceOwner: SequenceOwning {}
