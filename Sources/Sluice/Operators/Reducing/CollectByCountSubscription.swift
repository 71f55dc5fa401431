/// The subscriber of the upstream and the subscription of the downstream for ``Publishers/CollectByCount``:
/// it fills an array and sends it when full, or the rest at the upstream's `.finished`.
///
/// ```text
/// awaiting ──subscription: handed down──▶ subscribed ──completion──▶ finished
///     └──completion (passed on)──────────────┴──cancel──────────────────▲
/// (the subscriber is let go of at the completion and at cancel, rule 4)
/// ```
/// The upstream's signals are serial (rule 3) and only they call the downstream, so delivery
/// needs no serialising; the lock guards the state against `request(_:)` and `cancel()` from
/// other threads, and no call out is made while it is held (rule 6).
final class CollectByCountSubscription<Downstream: Subscriber, Element>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == [Element] {
    typealias Input = Element
    typealias Failure = Downstream.Failure

    struct State {
        var downstream: Downstream?
        var upstream: (any Subscription)?
        var finished = false
        var collected: [Element] = []
    }

    let combineIdentifier = CombineIdentifier()
    private let count: Int
    private let state: Locked<State>

    init(downstream: Downstream, count: Int) {
        self.count = count
        state = Locked(State(downstream: downstream))
    }

    func receive(subscription: any Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.finished, state.upstream == nil, let downstream = state.downstream else { return nil }
            state.upstream = subscription
            return downstream
        }
        guard let downstream else { return subscription.cancel() }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Element) -> Subscribers.Demand {
        let full = state.withLock { state -> (Downstream, [Element])? in
            guard state.upstream != nil, let downstream = state.downstream else { return nil }
            state.collected.append(input)
            guard state.collected.count >= count else { return nil }
            defer { state.collected = [] }
            return (downstream, state.collected)
        }
        guard let (downstream, array) = full else { return .none }
        return downstream.receive(array) * count
    }

    /// Passes the completion on, one before the subscription too, as Combine's does, and lets
    /// go of the downstream (rule 4); `.finished` sends the rest first (past the demand, as
    /// Combine's does), a failure drops it.
    func receive(completion: Subscribers.Completion<Failure>) {
        let ending = state.withLock { state -> (Downstream, [Element])? in
            state.upstream = nil
            state.finished = true
            defer {
                state.collected = []
                state.downstream = nil
            }
            return state.downstream.map { ($0, state.collected) }
        }
        guard let (downstream, rest) = ending else { return }
        if case .finished = completion, !rest.isEmpty { _ = downstream.receive(rest) }
        downstream.receive(completion: completion)
    }

    /// Asks the upstream for `count` elements per array; `.none` traps (rule 2), as
    /// Combine's does. Ignored before the subscription and after the end.
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        state.withLock { $0.upstream }?.request(demand * count)
    }

    /// Cancels the upstream and lets go of the downstream; ignored before the subscription
    /// (the subscription that comes later is taken, as in Combine).
    func cancel() {
        let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
            guard state.upstream != nil || state.finished else { return (nil, nil) }
            defer {
                state.upstream = nil
                state.downstream = nil
                state.finished = true
                state.collected = []
            }
            return (state.upstream, state.downstream)
        }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        upstream?.cancel()
    }

    var description: String { "CollectByCount" }
    /// Combine's children: the downstream, the upstream's subscription, the array being filled
    /// and the count per array.
    var customMirror: Mirror {
        let (downstream, upstream, buffer) = state.withLock { ($0.downstream, $0.upstream, $0.collected) }
        return Mirror(self, children: [
            "downstream": downstream as Any, "upstreamSubscription": upstream as Any, "buffer": buffer, "count": count,
        ])
    }
    var playgroundDescription: Any { description }
}
