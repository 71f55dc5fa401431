@_spi(Internals) import Sluice

/// A thread-safe, append-only list of events that tests can await without sleeping.
///
/// Every append re-checks the waiters' predicates and resumes those that now hold, after the
/// lock is released.
final class EventLog<Event> {
    fileprivate struct Waiter: Sendable {
        let predicate: @Sendable ([Event]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    fileprivate struct State {
        var events: [Event] = []
        var waiters: [Waiter] = []
    }

    private let state = Locked(State())

    func append(_ event: Event) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            guard !state.waiters.isEmpty else { return [] }
            let events = state.events
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.predicate(events) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    var events: [Event] { state.withLock { $0.events } }

    /// Suspends until `predicate` holds for the events recorded so far.
    func wait(until predicate: @escaping @Sendable ([Event]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let holds = state.withLock { state -> Bool in
                if predicate(state.events) { return true }
                state.waiters.append(Waiter(predicate: predicate, continuation: continuation))
                return false
            }
            if holds { continuation.resume() }
        }
    }
}

extension EventLog: Sendable where Event: Sendable {}
extension EventLog.State: Sendable where Event: Sendable {}
