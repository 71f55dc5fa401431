import Dispatch
import Testing
import Sluice

/// An actor that runs on a serial queue of its own, so a closure can check, without trapping,
/// whether it runs isolated to it.
actor QueueActor {
    private let executor = QueueExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Whether the caller runs on this actor's queue, and so isolated to it.
    nonisolated var isCurrent: Bool { executor.isCurrent }

    func run<T: Sendable>(_ body: @Sendable (isolated QueueActor) -> T) -> T { body(self) }
}

/// What a closure saw each time it ran: the value and whether it ran isolated to the actor
/// it was written for. Awaitable until a number of events have arrived.
final class IsolationLog<Value: Sendable>: Sendable {
    private struct State {
        var entries: [(value: Value, isolated: Bool)] = []
        var waiters: [(count: Int, gate: Gate)] = []
    }
    private let state = Locked(State())

    func record(_ value: Value, isolated: Bool) {
        let ready = state.withLock { state -> [Gate] in
            state.entries.append((value, isolated))
            let count = state.entries.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.gate)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for gate in ready { gate.open() }
    }

    /// Waits until `count` entries have arrived. If the waiting task is cancelled first (a
    /// test's `.timeLimit` ends a hung test that way), returns and records an issue saying how
    /// many entries came, so the test fails by name instead of hanging.
    func wait(for count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        let gate = Gate()
        let ready = state.withLock { state -> Bool in
            if state.entries.count >= count { return true }
            state.waiters.append((count, gate))
            return false
        }
        if ready { return }
        if await gate.waitUnlessCancelled() { return }
        Issue.record(
            "cancelled (by the test's time limit?) while waiting for \(count) isolation log entries; \(values.count) came",
            sourceLocation: sourceLocation)
    }

    /// Opened by ``markReleased()``: the owner of this log is gone.
    let released = Gate()
    func markReleased() { released.open() }
    func waitUntilReleased(sourceLocation: SourceLocation = #_sourceLocation) async {
        await released.wait(for: "the log's owner to be released", sourceLocation: sourceLocation)
    }

    var values: [Value] { state.withLock { $0.entries.map(\.value) } }
    var allIsolated: Bool { state.withLock { $0.entries.allSatisfy(\.isolated) } }
}

