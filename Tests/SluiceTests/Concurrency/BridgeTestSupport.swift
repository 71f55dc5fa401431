import Sluice
import SluiceTesting
import Testing
import Dispatch

/// Passes its upstream through unchanged and lets a test await the demand requested so far,
/// so that a hot source (a subject) is sent to only once a consumer is ready for it.
final class DemandWatch<Upstream: Publisher & Sendable>: Publisher, Sendable {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    private struct State {
        var requested = Subscribers.Demand.none
        var waiters: [(Subscribers.Demand, Gate)] = []
    }

    let upstream: Upstream
    private let state = Locked(State())
    /// Called inside each `request(_:)`, before it is forwarded and recorded.
    fileprivate let onRequest: @Sendable () -> Void

    init(_ upstream: Upstream, onRequest: @escaping @Sendable () -> Void = {}) {
        self.upstream = upstream
        self.onRequest = onRequest
    }

    /// The demand requested downstream so far, summed over all requests.
    var requested: Subscribers.Demand { state.withLock { $0.requested } }

    /// Suspends until at least `demand` has been requested in all, and has reached the upstream; if the
    /// task is cancelled first (a time limit), returns and records an issue (see ``Gate``).
    func waitForRequested(_ demand: Subscribers.Demand, sourceLocation: SourceLocation = #_sourceLocation) async {
        let gate = Gate()
        let ready = state.withLock { state -> Bool in
            if state.requested >= demand { return true }
            state.waiters.append((demand, gate))
            return false
        }
        if ready { return }
        await gate.wait(for: "a total demand of \(demand) (\(requested) came)", sourceLocation: sourceLocation)
    }

    fileprivate func recordRequest(_ demand: Subscribers.Demand) {
        let ready = state.withLock { state -> [Gate] in
            state.requested += demand
            let total = state.requested
            let ready = state.waiters.filter { $0.0 <= total }.map(\.1)
            state.waiters.removeAll { $0.0 <= total }
            return ready
        }
        for gate in ready { gate.open() }
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(Inlet(watch: self, downstream: subscriber))
    }

    /// Forwards every signal; wraps the subscription so that requests are recorded once forwarded.
    private struct Inlet<Downstream: Subscriber>: Subscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        let watch: DemandWatch
        let downstream: Downstream
        var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: Outlet(watch: watch, upstream: subscription))
        }
        func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }
        func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
    }

    private struct Outlet: Subscription {
        let watch: DemandWatch
        let upstream: any Subscription
        var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

        /// Recorded after the upstream has it: a test woken by the record and sending at once from its own
        /// thread must find the demand there (recorded first, a subject dropped that value now and then).
        func request(_ demand: Subscribers.Demand) {
            watch.onRequest()
            upstream.request(demand)
            watch.recordRequest(demand)
        }
        func cancel() { upstream.cancel() }
    }
}

/// Suspends the calling task until it is cancelled, without sleeping: a stand-in for an
/// async call that only cooperative cancellation ends. `parked` opens once it waits.
final class CancellationPark: Sendable {
    private let state = Locked<(cancelled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    let parked = Gate()

    func waitForCancellation() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let cancelled = state.withLock { state -> Bool in
                    if state.cancelled { return true }
                    state.waiter = continuation
                    return false
                }
                parked.open()
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}

/// Forwards to a recording subscriber and holds a probe: the probe's gate opens when the
/// publisher lets go of this subscriber, i.e. when its task has ended (or will never start).
struct ProbedSubscriber<Input: Sendable, Failure: Error>: Subscriber {
    let recorder: RecordingSubscriber<Input, Failure>
    let probe: DeinitProbe
    var combineIdentifier: CombineIdentifier { recorder.combineIdentifier }

    /// Wraps `recorder`; `released` opens once the wrapper is gone.
    init(_ recorder: RecordingSubscriber<Input, Failure>, released: Gate) {
        self.recorder = recorder
        probe = DeinitProbe(released)
    }

    func receive(subscription: any Subscription) { recorder.receive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { recorder.receive(input) }
    func receive(completion: Subscribers.Completion<Failure>) { recorder.receive(completion: completion) }
}

extension RecordingSubscriber {
    /// `true` if a completion was recorded.
    var hasCompleted: Bool { events.contains { if case .completion = $0 { true } else { false } } }
}

/// A serial executor running its jobs on a dispatch queue of its own, that can tell whether
/// the calling code runs on it: an actor using it can check, without trapping, that code
/// called synchronously from its methods (an upstream's `request(_:)`) stayed on it.
final class QueueExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "QueueExecutor")
    private let key = DispatchSpecificKey<UInt8>()

    init() { queue.setSpecific(key: key, value: 1) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    /// `true` when called from a job this executor runs.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

/// Whether the calling code runs on the main queue (where the main actor runs its jobs),
/// without trapping: for code called synchronously from a main-actor loop.
enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

/// An async sequence whose `next()` runs `body` with the number of earlier calls; it throws
/// whatever `body` throws (`any Error`, so a `CancellationError` can come through).
struct ClosureSequence<Element: Sendable>: AsyncSequence, Sendable {
    typealias Failure = any Error
    let body: @Sendable (Int) async throws -> Element?

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: @Sendable (Int) async throws -> Element?
        var calls = 0

        mutating func next() async throws -> Element? {
            defer { calls += 1 }
            return try await body(calls)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: body) }
}

extension Subscribers.Completion {
    /// `true` for a failure with a `CancellationError`.
    var isCancellationFailure: Bool {
        if case .failure(let error) = self { error is CancellationError } else { false }
    }
}

/// Races a cancel against a request and a delivery, 10,000 times, for a publisher of a
/// sequence whose `next()` runs `body` with the number of earlier calls (`publishing` makes
/// the publisher around `body`): the values stay within the demand, at most one is in flight
/// once `cancel()` returned, and no completion comes, checked after the subscriber is let go.
///
/// 0 is delivered at once; the second `next()` waits for `go`, which opens in the race, so the
/// cancel lands before, during or after the delivery of 1 and 2. The fourth `next()` throws
/// the CancellationError a cancel provoked, which must not arrive. Five elements for a demand
/// of at most four: no `.finished` either.
func raceCancelAgainstRequestAndDelivery<P: Publisher>(
    iterations: Int = StressBudget.scaled(10_000), publishing makePublisher: (@escaping @Sendable (Int) async throws -> Int?) -> P
) async where P.Output == Int, P.Failure == any Error {
    for _ in 0..<iterations {
        let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .max(3))
        let released = Gate()
        let go = Gate()
        makePublisher { call in
            if call == 1 { await go.waitIgnoringCancellation(for: "the test to let the first call go on") }
            if call == 3 { try Task.checkCancellation() }
            return call < 5 ? call : nil
        }.subscribe(ProbedSubscriber(recorder, released: released))
        await recorder.waitForValues(count: 1)
        let seenAtCancel = Locked(0)
        runConcurrently(threads: 3) { index in
            switch index {
            case 0:
                recorder.request(.max(1))
            case 1:
                go.open()
            default:
                recorder.cancel()
                seenAtCancel.withLock { $0 = recorder.values.count }
            }
        }
        // The publisher has let go of the subscriber: nothing can arrive later, so the checks
        // below see everything it delivered.
        await released.wait()
        let afterCancel = recorder.values.count - seenAtCancel.withLock { $0 }
        #expect(recorder.values.count <= 4)
        #expect(afterCancel <= 1, "\(afterCancel) values after cancel returned")
        #expect(!recorder.hasCompleted)
        #expect(recorder.violations.isEmpty)
    }
}
