import Sluice
import SluiceTesting
import Testing
import Dispatch

/// A one-shot signal a test can await without sleeping.
///
/// No wait on it can hang CI. A Swift Testing time limit ends a test by cancelling its task,
/// so ``wait(for:sourceLocation:)`` ends when the waiting task is cancelled and records an
/// issue naming what it waited for: a test whose event never comes fails, by name, within
/// its `.timeLimit`. ``waitUnlessCancelled()`` ends on cancellation silently, for code
/// whose cancellation is expected (a transform that `asyncMapLatest` cancels).
/// ``waitIgnoringCancellation(for:bound:sourceLocation:)`` is for code that must outlive a
/// cancel (a body standing in for user code that a cancel cannot hurry): it ignores
/// cancellation but gives up after a generous bound, recording an issue.
final class Gate: Sendable {
    private struct State {
        var open = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var deadlines: [Int: Task<Void, Never>] = [:]

        mutating func newID() -> Int {
            defer { nextID += 1 }
            return nextID
        }
    }
    private let state = Locked(State())

    func open() {
        let (waiters, deadlines) = state.withLock { state in
            state.open = true
            defer { (state.waiters, state.deadlines) = ([:], [:]) }
            return (Array(state.waiters.values), Array(state.deadlines.values))
        }
        for deadline in deadlines { deadline.cancel() }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    var isOpen: Bool { state.withLock { $0.open } }

    /// Waits until the gate is open and returns true; if the waiting task is cancelled first
    /// (a time limit ends a hung test that way), returns false and records an issue naming
    /// `what` (or the gate's call site).
    @discardableResult
    func wait(for what: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        if await waitUnlessCancelled() { return true }
        Issue.record(
            "cancelled (by the test's time limit?) while waiting for \(what ?? "a gate to open")",
            sourceLocation: sourceLocation)
        return false
    }

    /// Waits until the gate is open (true) or the waiting task is cancelled (false), silently.
    @discardableResult
    func waitUnlessCancelled() async -> Bool {
        let id = state.withLock { $0.newID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = state.withLock { state -> Bool? in
                    if state.open { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
        }
    }

    /// Waits until the gate is open, whether or not the waiting task is cancelled; after
    /// `bound` (generous: far beyond any test's time limit to open it), gives up, records
    /// an issue naming `what` and returns false.
    @discardableResult
    func waitIgnoringCancellation(
        for what: String? = nil, bound: Duration = .seconds(120),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        if isOpen { return true }
        let opened = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let open = state.withLock { state -> Bool in
                if state.open { return true }
                let id = state.newID()
                state.waiters[id] = continuation
                state.deadlines[id] = Task { [self] in
                    try? await Task.sleep(for: bound)
                    if Task.isCancelled { return }
                    let expired = self.state.withLock { state in
                        state.deadlines[id] = nil
                        return state.waiters.removeValue(forKey: id)
                    }
                    expired?.resume(returning: false)
                }
                return false
            }
            if open { continuation.resume(returning: true) }
        }
        if !opened {
            Issue.record(
                "gave up after \(bound) waiting for \(what ?? "a gate to open")", sourceLocation: sourceLocation)
        }
        return opened
    }
}

/// Opens a gate when deinitialised: proves that whoever held it has let go.
final class DeinitProbe: Sendable {
    let gate: Gate
    init(_ gate: Gate) { self.gate = gate }
    deinit { gate.open() }
}


/// Something that must not happen until the test allows it (a body starting, a `next()` call
/// beyond the demand). Each ``hit()`` before ``allow(_:)`` raised the allowance far enough is
/// counted as premature at the moment it happens, so a test never waits (or counts yields) to
/// see whether it will: it checks ``premature`` once the publisher is done (its body or
/// subscriber released), when nothing can hit the wire any more.
final class Tripwire: Sendable {
    private let state = Locked((allowed: 0, hits: 0, premature: 0))

    /// From now on, `count` hits in all are allowed.
    func allow(_ count: Int) { state.withLock { $0.allowed = count } }

    func hit() {
        state.withLock { state in
            state.hits += 1
            if state.hits > state.allowed { state.premature += 1 }
        }
    }

    var hits: Int { state.withLock { $0.hits } }
    /// The hits that came before they were allowed.
    var premature: Int { state.withLock { $0.premature } }
}

/// `recorder`, behind a subscriber that opens `released` when the publisher lets go of it:
/// after that, nothing can reach the recorder.
func releaseTracked<Input, Failure: Error>(
    _ recorder: RecordingSubscriber<Input, Failure>, opening released: Gate
) -> AnySubscriber<Input, Failure> {
    let probe = DeinitProbe(released)
    return AnySubscriber(
        receiveSubscription: { subscription in
            _ = probe
            recorder.receive(subscription: subscription)
        },
        receiveValue: { recorder.receive($0) },
        receiveCompletion: { recorder.receive(completion: $0) })
}

/// A non-suspending async sequence of `0..<count` that counts its `next()` calls (each one
/// hits ``tripwire``, allowed without limit unless the test sets it), can fail at the end,
/// and opens `released` when its iterator is gone.
struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = TestError

    let count: Int
    var failure: TestError? = nil
    let nextCalls = Locked(0)
    let released = Gate()
    let tripwire: Tripwire = {
        let tripwire = Tripwire()
        tripwire.allow(.max)
        return tripwire
    }()

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: CountingSequence
        let probe: DeinitProbe
        var index = 0

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestError) -> Int? {
            sequence.nextCalls.withLock { $0 += 1 }
            sequence.tripwire.hit()
            if index < sequence.count {
                defer { index += 1 }
                return index
            }
            if let failure = sequence.failure { throw failure }
            return nil
        }

        mutating func next() async throws(TestError) -> Int? {
            try await next(isolation: nil)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self, probe: DeinitProbe(released))
    }

    var calls: Int { nextCalls.withLock { $0 } }
}

/// Carries a test tool that is thread-safe but not declared `Sendable` (ControllablePublisher
/// and its subscriptions keep their state behind a lock) into another task.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Awaits a controllable subscription's calls from an actor-isolated test.
func waitForCalls<O, F>(
    _ subscription: UncheckedBox<ControllableSubscription<O, F>>,
    until predicate: @escaping @Sendable ([ControllableSubscription<O, F>.Call]) -> Bool
) async {
    await subscription.value.waitForCalls(until: predicate)
}

extension DispatchSemaphore {
    /// Blocks until signalled, for at most `bound` (generous: far beyond what the test needs);
    /// on timeout records an issue naming `what` and returns false, so a signal that never
    /// comes fails the test instead of blocking its thread (which no time limit can end).
    @discardableResult
    func wait(
        for what: String, bound: DispatchTimeInterval = .seconds(300),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        if wait(timeout: .now() + bound) == .success { return true }
        Issue.record("gave up after \(bound) waiting for \(what)", sourceLocation: sourceLocation)
        return false
    }
}
