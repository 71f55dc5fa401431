@_spi(Internals) import Sluice
import SluiceTesting

/// A one-shot signal a test can await without sleeping.
///
/// ``wait()`` ignores cancellation, as user code that a cancel cannot hurry does;
/// ``waitUnlessCancelled()`` also ends when the waiting task is cancelled (as `.timeLimit`
/// does to a test that hangs), so a test checks `isOpen` after it and fails instead of hanging.
final class Gate: Sendable {
    private struct State {
        var open = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Locked(State())

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    var isOpen: Bool { state.withLock { $0.open } }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !enqueue(continuation, cancellable: false) { continuation.resume() }
        }
    }

    func waitUnlessCancelled() async {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if !enqueue(continuation, id: id, cancellable: true) { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Parks `continuation`; false when the gate is open (or, if `cancellable`, the task is
    /// cancelled) and the caller resumes it at once.
    private func enqueue(_ continuation: CheckedContinuation<Void, Never>, id: Int? = nil, cancellable: Bool) -> Bool {
        state.withLock { state in
            if state.open || (cancellable && Task.isCancelled) { return false }
            let key = id ?? state.nextID
            if id == nil { state.nextID += 1 }
            state.waiters[key] = continuation
            return true
        }
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
