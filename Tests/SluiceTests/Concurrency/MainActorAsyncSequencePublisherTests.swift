import Sluice
import SluiceTesting
import Testing

/// `@MainActor` state holding a sequence that is not `Sendable`, as a view model keeps one:
/// only main-actor code may make or iterate it. Its ``OwnedCursor`` checks (trapping) that
/// every `next()` runs on the main actor.
@MainActor
final class MainActorModel<Failure: Error> {
    private let body: @Sendable (Int) async throws(Failure) -> Int?
    private var cursor: OwnedCursor<Failure>?
    /// How many times ``sequence`` was read.
    private(set) var sequencesMade = 0
    /// Opens when the iterator of the sequence is gone: its iteration is over.
    nonisolated let iteratorReleased = Gate()

    init(_ body: @escaping @Sendable (Int) async throws(Failure) -> Int?) { self.body = body }

    /// The model's sequence, made on first use and kept: a `@MainActor` property, which an
    /// `isolated MainActor` closure could not read.
    var sequence: OwnedSequence<Failure> {
        sequencesMade += 1
        let cursor = self.cursor ?? OwnedCursor(owner: MainActor.shared, iteratorReleased: iteratorReleased, body: body)
        self.cursor = cursor
        return OwnedSequence(cursor: cursor)
    }

    var nextCalls: Int { cursor?.calls ?? 0 }
    var callsWithOtherIsolation: Int { cursor?.callsWithOtherIsolation ?? 0 }

    /// The model's sequence as a publisher.
    nonisolated func published(priority: TaskPriority? = nil) -> MainActorAsyncSequencePublisher<OwnedSequence<Failure>> {
        MainActor.publisher(priority: priority) { self.sequence }
    }
}

/// `MainActorAsyncSequencePublisher` / `MainActor.publisher(iterating:)`: a sequence that is
/// not `Sendable`, made from `@MainActor` state, published with `AsyncSequencePublisher`'s
/// contract. The limit only stops a hang (see `IsolatedAsyncSequencePublisherTests`).
@Suite(.timeLimit(.minutes(12)))
struct MainActorAsyncSequencePublisherTests {
    @Test("a @MainActor model's non-Sendable sequence is published: every element in order, then finished")
    func mainActorStateIsPublishedInOrder() async {
        await OwnedSequenceContract.publishesInOrder { await MainActorModel<Never>($0) }
    }

    @Test("makeSequence and every next() run on the main actor, next() with the main actor as its isolation")
    func factoryAndNextRunOnTheMainActor() async {
        let model = await MainActorModel<Never> { call in call < 5 ? call : nil }
        let recorder = RecordingSubscriber<Int, Never>()
        MainActorAsyncSequencePublisher {
            MainActor.assertIsolated("makeSequence runs off the main actor")
            return model.sequence
        }.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        // Each call also checked `MainActor.shared.assertIsolated()`: five elements and the end.
        #expect(await model.nextCalls == 6)
        #expect(await model.callsWithOtherIsolation == 0)
    }

    @Test("next() is called only within the demand: none while demand is zero, none beside one in progress")
    func nextIsCalledOnlyWithinDemand() async {
        await OwnedSequenceContract.callsNextOnlyWithinDemand { await MainActorModel<Never>($0) }
    }

    @Test("the sequence is made and iterated at the first demand, not at subscribe")
    func iterationStartsAtTheFirstDemand() async {
        await OwnedSequenceContract.startsAtTheFirstDemand { await MainActorModel<Never>($0) }
    }

    @Test("the sequence's typed failure is the publisher's, and is delivered")
    func theSequencesTypedFailureIsDelivered() async {
        await OwnedSequenceContract.deliversTheTypedFailure { await MainActorModel<TestError>($0) }
    }

    @Test("cancel while next() is suspended cancels the task; the CancellationError it causes is not delivered")
    func cancelWhileSuspendedInNextCancelsTheTaskAndDeliversNothing() async {
        await OwnedSequenceContract.cancelWhileSuspendedDeliversNothing { await MainActorModel<any Error>($0) }
    }

    @Test("a cancel that comes before the task reaches the main actor: the sequence is never made")
    @MainActor
    func cancelBeforeTheTaskReachesTheMainActorNeverMakesTheSequence() async {
        // This test holds the main actor from the request to the cancel, so the task that the
        // request starts cannot have reached it in between.
        let model = MainActorModel<Never> { call in call == 0 ? 0 : nil }
        weak var weakSubscription: AnyObject?
        var values = 0
        model.published().subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { weakSubscription = $0 as AnyObject },
            receiveValue: { _ in values += 1; return .none }))
        let subscription = weakSubscription as? any Subscription
        subscription?.request(.max(1))
        subscription?.cancel()
        _ = consume subscription
        // Its task holds the subscription: once the subscription is gone, so is the task, and
        // it can make nothing more.
        while weakSubscription != nil { await Task.yield() }
        #expect(model.sequencesMade == 0)
        #expect(values == 0)
    }

    @Test("cancel racing a request and the delivery: within demand, at most one value in flight once cancel returns, no completion")
    func cancelRacingRequestNeverExceedsDemandOrSignalsAfterCancel() async {
        await raceCancelAgainstRequestAndDelivery(iterations: StressBudget.scaled(2_000)) { body in
            MainActor.publisher { OwnedSequence(cursor: OwnedCursor(owner: MainActor.shared, iteratorReleased: Gate(), body: body)) }
        }
    }

    @Test("priority: the iterating task runs at the given priority")
    func iterationRunsAtTheGivenPriority() async {
        for priority in [TaskPriority.low, .high] {
            #expect(await MainActorModel<Never> { _ in nil }.published(priority: priority).priority == priority)
        }
        await OwnedSequenceContract.runsAtTheGivenPriority { await MainActorModel<Never>($0) }
    }

    @Test func subscriptionDescribesItselfAsAsyncSequence() async {
        await OwnedSequenceContract.describesItsSubscription { await MainActorModel<Never>($0) }
    }
}

extension MainActorModel: SequenceOwning {}
