import Sluice

/// The race behind `Publishers.Amb` and `amb()` of many. The first request asks each contender for one value
/// and keeps the rest, which the winner gets minus the unit its first value used, so the winner never has more
/// requested of it than the downstream asked for. Every callout is made after unlocking (rule 6); the lock lets
/// only the first contender through and drops the others' signals, so the downstream's are serial (rule 3).
///
/// ```text
/// racing ──first value / completion of contender i──▶ won by i (the others cancelled)
///    │                                                   └─ i completes / cancel ──▶ ended
///    └─ cancel ──▶ ended (every contender cancelled)
/// ```
final class AmbSubscription<Output, Failure: Error, Downstream: Subscriber>:
    Subscription, IndexedSubscriberParent
where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias IndexedInput = Output
    typealias IndexedFailure = Failure

    struct State: EndingState {
        var downstream: Downstream?
        /// Each contender's subscription; a loser's slot, or one whose contender completed, is
        /// ended, so that a second subscription from it is cancelled.
        var contenders: [SubscriptionSlot]
        var asked: [Bool]
        /// The downstream's demand not yet passed to the winner.
        var demand = Subscribers.Demand.none
        var winner: Int?
        var ended = false

        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            contenders = Array(repeating: .awaiting, count: count)
            asked = Array(repeating: false, count: count)
        }

        /// The contenders not yet asked for a value whose subscription came; marks them asked.
        mutating func askAll() -> [any Subscription] {
            guard winner == nil, !ended, demand > .none else { return [] }
            var ask: [any Subscription] = []
            for index in contenders.indices where !asked[index] {
                guard let subscription = contenders[index].current else { continue }
                asked[index] = true
                ask.append(subscription)
            }
            return ask
        }

        /// Returns the losers' subscriptions, to cancel.
        mutating func decide(_ index: Int) -> [any Subscription] {
            winner = index
            var losers: [any Subscription] = []
            for other in contenders.indices where other != index {
                if let loser = contenders[other].end()?.upstream { losers.append(loser) }
            }
            return losers
        }

        mutating func end() -> [any Subscription] {
            ended = true
            return contenders.indices.compactMap { contenders[$0].end()?.upstream }
        }
    }

    let state: Locked<State>

    init(downstream: Downstream, count: Int) {
        state = Locked(State(downstream: downstream, count: count))
    }

    // MARK: The contenders

    func receive(subscription: any Subscription, at index: Int) {
        let accepted = state.withLock { state -> Bool in
            !state.ended && state.contenders[index].attach(subscription)
        }
        guard accepted else { return subscription.cancel() }
        for contender in state.withLock({ $0.askAll() }) { contender.request(.max(1)) }
    }

    func receive(_ input: Output, at index: Int) -> Subscribers.Demand {
        let claim = state.withLock { state -> (Downstream, losers: [any Subscription], rest: Subscribers.Demand)? in
            guard !state.ended, let downstream = state.downstream else { return nil }
            if state.winner == index { return (downstream, [], .none) }
            guard state.winner == nil else { return nil }
            let losers = state.decide(index)
            // The race's request covered this value; the rest of the kept demand is the winner's.
            defer { state.demand = .none }
            return (downstream, losers, state.demand - 1)
        }
        guard let (downstream, losers, rest) = claim else { return .none }
        for loser in losers { loser.cancel() }
        let more = downstream.receive(input)
        if rest > .none, let winner = state.withLock({ $0.ended ? nil : $0.contenders[index].current }) {
            winner.request(rest)
        }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        state.end(with: completion) { state in
            guard state.winner == nil || state.winner == index else { return false }
            _ = state.contenders[index].end()  // it completed: nothing to cancel
            return true
        }
    }

    // MARK: The downstream

    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let (winner, ask) = state.withLock { state -> ((any Subscription)?, [any Subscription]) in
            guard !state.ended else { return (nil, []) }
            if let winner = state.winner { return (state.contenders[winner].current, []) }
            state.demand += demand
            return (nil, state.askAll())
        }
        winner?.request(demand)
        for contender in ask { contender.request(.max(1)) }
    }

    func cancel() {
        state.end(with: nil)
    }

    var description: String { "Amb" }
}
