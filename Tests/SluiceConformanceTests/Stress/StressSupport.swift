// Shared tools of the stress tests: tagged values and the checks (the operation budget,
// `StressBudget`, is in SluiceTesting, for every test target of the package).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif
import Dispatch
import Synchronization
import Testing
import Sluice
import SluiceTesting

/// A value tagged with the thread that sent it and its rank among that thread's values, so
/// that per-sender order can be checked after concurrent sends.
struct Tagged: Sendable, Hashable, CustomStringConvertible {
    let sender: Int
    let rank: Int
    var description: String { "\(sender).\(rank)" }
}

/// Checks that the values of each sender arrive in increasing rank, each at most once;
/// returns the first breach found and the number of values seen per sender.
func perSenderOrder(_ values: [Tagged], senders: Int) -> (breach: String?, counts: [Int]) {
    var last = [Int](repeating: -1, count: senders)
    var counts = [Int](repeating: 0, count: senders)
    for value in values where value.sender >= 0 {
        guard value.sender < senders else { return ("unknown sender in \(value)", counts) }
        if value.rank <= last[value.sender] {
            return ("\(value) after \(value.sender).\(last[value.sender])", counts)
        }
        last[value.sender] = value.rank
        counts[value.sender] += 1
    }
    return (nil, counts)
}

/// Carries a test double that is thread-safe but not declared `Sendable` (a `Future`, a
/// `Sink`, a subscription) into `runConcurrently` or a task.
///
/// Safe: only types whose public entry points are documented thread-safe (Combine's
/// `Subscription.request`/`cancel`, `Future`'s promise and subscribe, `Cancellable.cancel`)
/// are put in it, and the tests call nothing else on them concurrently.
struct StressShared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Counts live instances: `init` and `deinit` bump a shared atomic counter, so a test can
/// see how many elements are held somewhere (buffered, in flight) at any moment, and that
/// all of them are released at the end.
final class LiveElement: Sendable {
    let rank: Int
    private let counter: LiveCounter

    init(_ rank: Int, counter: LiveCounter) {
        self.rank = rank
        self.counter = counter
        counter.created()
    }

    deinit { counter.released() }
}

/// Forwards every signal to a recorder, and counts as alive in a ``LiveCounter`` until the
/// publisher lets go of it: once a counter of these is back to zero, no publisher can signal
/// their recorders any more (their tasks ended, or they dropped the subscriber on cancel), so
/// a check made then sees every late value and completion.
final class TrackedSubscriber<Input, Failure: Error>: Subscriber {
    private let downstream: RecordingSubscriber<Input, Failure>
    private let token: LiveElement

    init(_ downstream: RecordingSubscriber<Input, Failure>, live: LiveCounter) {
        self.downstream = downstream
        token = LiveElement(0, counter: live)
    }

    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }
    func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

/// The shared counter of ``LiveElement``: the number alive now and the highest seen.
final class LiveCounter: Sendable {
    private let live = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)

    func created() {
        let now = live.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        var seen = peak.load(ordering: .relaxed)
        while now > seen {
            let (exchanged, original) = peak.weakCompareExchange(
                expected: seen, desired: now, ordering: .acquiringAndReleasing)
            if exchanged { break }
            seen = original
        }
    }

    func released() { live.wrappingSubtract(1, ordering: .acquiringAndReleasing) }

    /// The instances alive now.
    var current: Int { live.load(ordering: .acquiring) }
    /// The most instances alive at once so far.
    var highest: Int { peak.load(ordering: .acquiring) }
}

/// A one-shot signal a test awaits without sleeping (opened once, stays open). A wait ends
/// when the waiting task is cancelled (as a `.timeLimit` does to a test that hangs) and then
/// records an issue naming what it waited for: a stress test whose event never comes fails
/// by name instead of hanging CI.
final class StressGate: Sendable {
    private struct State {
        var open = false
        var nextID = 0
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

    /// Waits until the gate is open (true); if the task is cancelled first, records an issue
    /// naming `what` and returns false.
    @discardableResult
    func wait(for what: String = "a gate to open", sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let opened = await withTaskCancellationHandler {
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
        if !opened {
            Issue.record("cancelled (by the test's time limit?) while waiting for \(what)", sourceLocation: sourceLocation)
        }
        return opened
    }
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

