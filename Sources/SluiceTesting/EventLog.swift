import Sluice

/// A thread-safe, append-only list of events that tests can await without sleeping.
///
/// Waiters' predicates are test code, so they run outside the lock (rule 6): a predicate may
/// read the recorder or the subscription it waits on without deadlocking. Every append checks
/// the waiters registered at that moment against a snapshot of the events, then resumes those
/// whose predicate held. A waiter that registers checks its predicate once against the events
/// it registered after, so no append is missed. A wait ends early, with nothing, when the
/// awaiting task is cancelled (e.g. by a Swift Testing `.timeLimit`), instead of hanging.
final class EventLog<Event> {
    fileprivate struct Waiter: Sendable {
        let id: UInt64
        let predicate: @Sendable ([Event]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    fileprivate struct State {
        var events: [Event] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
    }

    private let state = Locked(State())

    func append(_ event: Event) {
        let (events, waiters) = state.withLock { state -> ([Event], [Waiter]) in
            state.events.append(event)
            return state.waiters.isEmpty ? ([], []) : (state.events, state.waiters)
        }
        let satisfied = waiters.filter { $0.predicate(events) }.map(\.id)
        for id in satisfied { resume(waiter: id) }
    }

    var events: [Event] { state.withLock { $0.events } }

    /// Removes the waiter and resumes it, unless another path (an append, the registration,
    /// a cancellation) already did.
    private func resume(waiter id: UInt64) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        continuation?.resume()
    }
}

extension EventLog where Event: Sendable {
    /// Suspends until `predicate` holds for the events recorded so far, or until the awaiting
    /// task is cancelled.
    func wait(until predicate: @escaping @Sendable ([Event]) -> Bool) async {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let events = state.withLock { state -> [Event] in
                    state.waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation))
                    return state.events
                }
                // A cancellation that came before the registration found nothing to resume:
                // the flag is already set, so it is seen here.
                if Task.isCancelled || predicate(events) { resume(waiter: id) }
            }
        } onCancel: {
            resume(waiter: id)
        }
    }
}

extension EventLog: Sendable where Event: Sendable {}
extension EventLog.State: Sendable where Event: Sendable {}
