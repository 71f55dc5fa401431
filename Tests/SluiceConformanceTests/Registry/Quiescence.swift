import Sluice
import SluiceTesting

// How a rule knows that a registry entry has gone quiet (Reactive Streams 3.12): each entry's
// ``Source`` subscribes each recorder through a ``ReleaseSignal``, a forwarding subscriber that
// nobody but the publisher holds; its `deinit` opens a ``ReleaseGate``. Once the publisher has
// let go of it, nothing can reach the recorder any more. An asynchronous entry's values come
// from a task, so a check made right after `cancel()` would miss a value the task delivers
// later: a rule awaits ``Source/settle(_:)`` (its producing task ended, or, for a `Future`, it
// dropped the subscriber on cancel) and then sees every late signal. A synchronous or hot entry
// must have let go by the time the cancel returned: `settle` checks that it has.

/// A one-shot signal, opened once and open for good; awaiting it ends early, returning `false`,
/// when the awaiting task is cancelled (as `.timeLimit` does to a test that hangs).
final class ReleaseGate: Sendable {
    private struct State {
        var open = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    }

    private let state = Locked(State())

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.open = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Whether the gate is open now.
    var isOpen: Bool { state.withLock { $0.open } }

    /// Waits until the gate is open; `false` if the task was cancelled first.
    func wait() async -> Bool {
        let id = state.withLock { state -> Int in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow = state.withLock { state -> Bool? in
                    if state.open { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
        }
    }
}

/// Forwards every signal to a recorder and opens its gate when the publisher releases it.
///
/// The publisher under test is its only owner (the recorder keeps the subscription, never this
/// object), so its `deinit` runs exactly when the publisher dropped its last reference: after
/// that, no signal can reach the recorder.
final class ReleaseSignal: Subscriber {
    typealias Input = Int
    typealias Failure = TestFailure

    private let downstream: Recorder
    private let gate: ReleaseGate

    init(_ downstream: Recorder, gate: ReleaseGate) {
        self.downstream = downstream
        self.gate = gate
    }

    deinit { gate.open() }

    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    func receive(_ input: Int) -> Subscribers.Demand { downstream.receive(input) }
    func receive(completion: Subscribers.Completion<TestFailure>) { downstream.receive(completion: completion) }
}

/// The release gates of the recorders an asynchronous source was subscribed with.
final class ReleaseGates: Sendable {
    private let gates = Locked<[ObjectIdentifier: ReleaseGate]>([:])

    /// A fresh gate for `recorder`'s subscription.
    func make(for recorder: Recorder) -> ReleaseGate {
        let gate = ReleaseGate()
        gates.withLock { $0[ObjectIdentifier(recorder)] = gate }
        return gate
    }

    func gate(for recorder: Recorder) -> ReleaseGate? {
        gates.withLock { $0[ObjectIdentifier(recorder)] }
    }
}
