/// The subscription behind ``Just``, ``Optional/Publisher`` and ``Result/Publisher`` when they
/// have a value: it delivers the value and `.finished` on the first positive demand.
///
/// States and transitions (under the lock; the callouts happen after it):
///
/// ```
/// pending(subscriber, value) ──request(n > 0)──▶ done   (then: value, .finished)
/// pending(subscriber, value) ──cancel──────────▶ done   (the subscriber is released)
/// done ──request / cancel──▶ done                       (nothing)
/// ```
///
/// Each `request` or `cancel` takes the lock once; only the first one that finds `pending`
/// acts, so a `cancel` racing a `request` either prevents both signals or none.

final class SingleValueSubscription<Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    private enum State {
        case pending(Downstream, Downstream.Input)
        case done
    }

    private let state: Locked<State>
    private let name: String

    init(value: Downstream.Input, downstream: Downstream, name: String) {
        state = Locked(.pending(downstream, value))
        self.name = name
    }

    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        guard let (downstream, value) = take() else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        // The subscriber and the value are released after the lock (their deinit may call out).
        _ = take()
    }

    /// Moves to `done`, handing out what was pending exactly once.
    private func take() -> (Downstream, Downstream.Input)? {
        state.withLock { state in
            guard case .pending(let downstream, let value) = state else { return nil }
            state = .done
            return (downstream, value)
        }
    }

    var description: String { name }

    var customMirror: Mirror {
        let value: Any? = state.withLock { state -> Any? in
            if case .pending(_, let value) = state { return value }
            return nil
        }
        return Mirror(self, children: ["value": value as Any])
    }

    var playgroundDescription: Any { description }
}
