import Dispatch
@_spi(Internals) import Sluice

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
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Locked(State())

    func record(_ value: Value, isolated: Bool) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.entries.append((value, isolated))
            let count = state.entries.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until `count` entries have arrived (a test's time limit ends a hang).
    func wait(for count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.entries.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Opened by ``markReleased()``: the owner of this log is gone.
    let released = Gate()
    func markReleased() { released.open() }
    func waitUntilReleased() async { await released.wait() }

    var values: [Value] { state.withLock { $0.entries.map(\.value) } }
    var allIsolated: Bool { state.withLock { $0.entries.allSatisfy(\.isolated) } }
}

