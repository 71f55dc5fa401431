import Sluice

/// The subscription of a `Publishers.WithLatestFrom`: the upstream's subscriber, the
/// downstream's subscription, and (through `OtherSide`) the other publisher's subscriber.
///
/// Its state is under one lock; every callout (to the downstream, to either subscription) is
/// made after unlocking (rule 6). The upstream's signals are serial (rule 3) but the other's
/// failure may come on another thread while an upstream value is out to the downstream: then
/// the failure waits in `State/pendingCompletion` and the thread delivering that value
/// delivers it when the downstream returns, so the downstream's signals never overlap.
///
/// ```text
/// running ──upstream completes / other fails / cancel──▶ ended (downstream, subscriptions
///    │                                                          and latest value let go)
///    └─ other fails while a value is out: pendingCompletion, delivered by that value's thread
/// ```
final class WithLatestFromSubscription<UpstreamOutput, OtherOutput, Failure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == (UpstreamOutput, OtherOutput), Downstream.Failure == Failure {
    typealias Input = UpstreamOutput

    struct State {
        /// `nil` once ended.
        var downstream: Downstream?
        var upstream: (any Subscription)?
        var other: (any Subscription)?
        /// Demand requested before the upstream's subscription arrived.
        var pendingDemand = Subscribers.Demand.none
        var latest: OtherOutput?
        /// An upstream value is out to the downstream.
        var delivering = false
        /// The other failed while a value was out: its thread delivers this on return.
        var pendingCompletion: Subscribers.Completion<Failure>?
        var ended = false

        /// Ends the stream: lets go of everything; returns the subscriptions to cancel.
        mutating func end() -> [any Subscription] {
            ended = true
            latest = nil
            defer { upstream = nil; other = nil }
            return [upstream, other].compactMap { $0 }
        }
    }

    let state: Locked<State>

    init(downstream: Downstream) {
        state = Locked(State(downstream: downstream))
    }

    // MARK: The upstream

    func receive(subscription: any Subscription) {
        let demand = state.withLock { state -> Subscribers.Demand? in
            guard !state.ended, state.upstream == nil else { return nil }
            state.upstream = subscription
            defer { state.pendingDemand = .none }
            return state.pendingDemand
        }
        guard let demand else { return subscription.cancel() }
        if demand > .none { subscription.request(demand) }
    }

    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        let claim = state.withLock { state -> (Downstream, OtherOutput)?? in
            guard !state.ended, let downstream = state.downstream else { return nil }
            guard let latest = state.latest else { return .some(nil) }
            state.delivering = true
            return (downstream, latest)
        }
        guard let claim else { return .none }
        guard let (downstream, latest) = claim else { return .max(1) }  // dropped: ask for another
        let more = downstream.receive((input, latest))
        let pending = state.withLock { state -> Subscribers.Completion<Failure>? in
            state.delivering = false
            defer { state.pendingCompletion = nil }
            return state.pendingCompletion
        }
        if let pending {
            downstream.receive(completion: pending)
            return .none
        }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        end(with: completion)
    }

    // MARK: The other publisher

    func receiveOther(subscription: any Subscription) {
        let accepted = state.withLock { state in
            guard !state.ended, state.other == nil else { return false }
            state.other = subscription
            return true
        }
        if accepted { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    func receiveOther(_ input: OtherOutput) {
        state.withLock { state in
            if !state.ended { state.latest = input }
        }
    }

    func receiveOther(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            state.withLock { $0.other = nil }  // its latest value stays
        case .failure:
            end(with: completion)
        }
    }

    /// The upstream completed or the other failed: the completion goes out now, or after the
    /// value being delivered; every subscription still held is cancelled.
    func end(with completion: Subscribers.Completion<Failure>) {
        let (cancels, downstream) = state.withLock { state -> ([any Subscription], Downstream?) in
            guard !state.ended else { return ([], nil) }
            let cancels = state.end()
            let downstream = state.downstream
            state.downstream = nil
            if state.delivering {
                state.pendingCompletion = completion
                return (cancels, nil)
            }
            return (cancels, downstream)
        }
        for subscription in cancels { subscription.cancel() }
        downstream?.receive(completion: completion)
    }

    // MARK: The downstream

    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let upstream = state.withLock { state -> (any Subscription)? in
            guard !state.ended else { return nil }
            if state.upstream == nil { state.pendingDemand += demand }
            return state.upstream
        }
        upstream?.request(demand)
    }

    func cancel() {
        let (cancels, downstream) = state.withLock { state -> ([any Subscription], Downstream?) in
            guard !state.ended else { return ([], nil) }
            defer { state.downstream = nil; state.pendingCompletion = nil }
            return (state.end(), state.downstream)
        }
        for subscription in cancels { subscription.cancel() }
        withExtendedLifetime(downstream) {}  // released after unlocking
    }

    /// `"WithLatestFrom"`.
    var description: String { "WithLatestFrom" }

    /// The other publisher's subscriber: it passes every signal on to the subscription.
    struct OtherSide: Subscriber, CustomStringConvertible {
        typealias Input = OtherOutput
        let parent: WithLatestFromSubscription
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) { parent.receiveOther(subscription: subscription) }
        func receive(_ input: OtherOutput) -> Subscribers.Demand {
            parent.receiveOther(input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Failure>) { parent.receiveOther(completion: completion) }
        var description: String { "WithLatestFrom" }
    }
}
