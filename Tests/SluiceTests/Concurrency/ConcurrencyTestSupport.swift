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


/// A non-suspending async sequence of `0..<count` that counts its `next()` calls, can fail
/// at the end, and opens `released` when its iterator is gone.
struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = TestError

    let count: Int
    var failure: TestError? = nil
    let nextCalls = Locked(0)
    let released = Gate()

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: CountingSequence
        let probe: DeinitProbe
        var index = 0

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestError) -> Int? {
            sequence.nextCalls.withLock { $0 += 1 }
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
