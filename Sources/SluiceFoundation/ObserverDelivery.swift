import Sluice

/// What an observer-backed subscription (a notification observer, a key-value observation) keeps behind its
/// one lock: the downstream, its demand and serial delivery, and the observation (`Resource`) to end.
///
/// ```text
/// waiting ──start──▶ observing ──end──▶ ended (downstream released, observation handed back)
///    └───────────────────end─────────────▲
/// ```
/// Every call out (the downstream, ending the observation) happens after unlocking.
struct ObserverDelivery<Downstream: Subscriber, Resource> where Downstream.Failure == Never {
    private struct State {
        var downstream: Downstream?
        var delivery = SerialDelivery<Downstream.Input, Never>()
        var resource: Resource?
        var started = false
    }

    private let state: Locked<State>

    init(downstream: Downstream) {
        state = Locked(State(downstream: downstream))
    }

    /// Returns `true` the first time, when the owner starts observing if it waits for demand.
    func request(_ demand: Subscribers.Demand) -> Bool {
        state.withLock { state in
            guard state.downstream != nil else { return false }
            state.delivery.demand += demand
            defer { state.started = true }
            return !state.started
        }
    }

    /// Returns `false` if the subscription already ended: the caller ends the observation itself.
    func keep(_ resource: Resource) -> Bool {
        state.withLock { state in
            guard state.downstream != nil else { return false }
            state.resource = resource
            return true
        }
    }

    /// Delivers `value` on this thread, queues it for the thread already delivering, or drops it without demand.
    func offer(_ value: Downstream.Input) {
        let downstream = state.withLock { state -> Downstream? in
            guard let downstream = state.downstream, case .deliver = state.delivery.admit(value) else { return nil }
            return downstream
        }
        guard let downstream else { return }
        state.deliver(.value(value), to: downstream, delivered: { state, more in
            guard state.downstream != nil else { return ((), .idle) }
            return ((), state.delivery.next(adding: more))
        }, carryOut: { _ in })
    }

    /// Returns the observation for the caller to end.
    func end() -> Resource? {
        let (downstream, resource) = state.withLock { state in
            defer {
                state.downstream = nil
                state.resource = nil
                state.delivery.reset()
            }
            return (state.downstream, state.resource)
        }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        return resource
    }

    /// The outstanding demand, for mirrors.
    var demand: Subscribers.Demand { state.withLock { $0.delivery.demand } }
}
