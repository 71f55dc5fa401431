import Sluice

/// The subscription of a `Publishers.WithLatestFrom`, also the upstream's subscriber. Every callout is made
/// after unlocking (rule 6). The other's failure may come on another thread while an upstream value is out:
/// it then waits in `State/pendingCompletion` for that value's thread, so the downstream's signals never overlap.
///
/// ```text
/// running ──upstream completes / other fails / cancel──▶ ended (downstream, subscriptions
///    │                                                          and latest value let go)
///    └─ other fails while a value is out: pendingCompletion, delivered by that value's thread
/// ```
/// Inlinable, so that it runs specialised in the client.
@usableFromInline
final class WithLatestFromSubscription<UpstreamOutput, OtherOutput, Failure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Downstream.Input == (UpstreamOutput, OtherOutput), Downstream.Failure == Failure {
    @usableFromInline typealias Input = UpstreamOutput

    @usableFromInline
    struct State {
        @usableFromInline var downstream: Downstream?
        @usableFromInline var upstream: (any Subscription)?
        @usableFromInline var other: (any Subscription)?
        /// Demand requested before the upstream's subscription arrived.
        @usableFromInline var pendingDemand = Subscribers.Demand.none
        @usableFromInline var latest: OtherOutput?
        @usableFromInline var delivering = false
        /// The other failed while a value was out: that value's thread delivers this on return.
        @usableFromInline var pendingCompletion: Subscribers.Completion<Failure>?
        @usableFromInline var ended = false

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        /// Lets go of everything; returns the subscriptions to cancel.
        @inlinable
        mutating func end() -> [any Subscription] {
            ended = true
            latest = nil
            defer { upstream = nil; other = nil }
            return [upstream, other].compactMap { $0 }
        }
    }

    @usableFromInline let state: Locked<State>

    @inlinable
    init(downstream: Downstream) {
        state = Locked(State(downstream: downstream))
    }

    // MARK: The upstream

    @inlinable
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

    @inlinable
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

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        end(with: completion)
    }

    // MARK: The other publisher

    @inlinable
    func receiveOther(subscription: any Subscription) {
        let accepted = state.withLock { state in
            guard !state.ended, state.other == nil else { return false }
            state.other = subscription
            return true
        }
        if accepted { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    @inlinable
    func receiveOther(_ input: OtherOutput) {
        state.withLock { state in
            if !state.ended { state.latest = input }
        }
    }

    @inlinable
    func receiveOther(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            state.withLock { $0.other = nil }  // its latest value stays
        case .failure:
            end(with: completion)
        }
    }

    /// The completion goes out now, or after the value being delivered.
    @inlinable
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

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let upstream = state.withLock { state -> (any Subscription)? in
            guard !state.ended else { return nil }
            if state.upstream == nil { state.pendingDemand += demand }
            return state.upstream
        }
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        let (cancels, downstream) = state.withLock { state -> ([any Subscription], Downstream?) in
            guard !state.ended else { return ([], nil) }
            defer { state.downstream = nil; state.pendingCompletion = nil }
            return (state.end(), state.downstream)
        }
        for subscription in cancels { subscription.cancel() }
        withExtendedLifetime(downstream) {}  // released after unlocking
    }

    @usableFromInline var description: String { "WithLatestFrom" }

    @usableFromInline
    struct OtherSide: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = OtherOutput
        @usableFromInline let parent: WithLatestFromSubscription
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable init(parent: WithLatestFromSubscription) { self.parent = parent }

        @inlinable func receive(subscription: any Subscription) { parent.receiveOther(subscription: subscription) }
        @inlinable func receive(_ input: OtherOutput) -> Subscribers.Demand {
            parent.receiveOther(input)
            return .none
        }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) {
            parent.receiveOther(completion: completion)
        }
        @usableFromInline var description: String { "WithLatestFrom" }
    }
}
