import Sluice

/// The subscription of a `Publishers.RetryWhen`, with the subscribers of each upstream attempt and of the trigger.
/// Every callout is made after unlocking (rule 6). Sending a failure and subscribing the upstream may each
/// synchronously cause the other, so one thread at a time runs them (`busy`): a step caused meanwhile is
/// recorded (`pendingFailure`, `retryRequested`) and run by its loop, keeping the stack flat.
///
/// ```text
/// running ──upstream fails──▶ waiting (failure sent to the trigger) ──trigger value──▶ running
///    │                           │
///    ├─ upstream finishes ───────┼──▶ ended (finished)
///    └─ trigger ends / cancel ───┴──▶ ended (the trigger's ending, or nothing on cancel)
/// ```
final class RetryWhenSubscription<Upstream: Publisher, TriggerOutput, TriggerFailure: Error, Downstream: Subscriber>:
    Subscription, CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Failure = Upstream.Failure

    enum Step {
        case sendFailure(Failure, PassthroughSubject<Failure, Never>)
        case subscribe(Upstream)
    }

    struct State: EndingState {
        var downstream: Downstream?
        var publisher: Upstream?
        var failures: PassthroughSubject<Failure, Never>?
        /// The current attempt's subscription; `nil` between a failure and the retry.
        var upstream: (any Subscription)?
        var trigger: (any Subscription)?
        /// The downstream's demand not yet met by a value.
        var demand = Subscribers.Demand.none
        /// The upstream failed; the next trigger value retries.
        var waiting = false
        var busy = false
        var pendingFailure: Failure?
        var retryRequested = false
        var ended = false

        /// Lets go of everything; returns the subscriptions to cancel.
        mutating func end() -> [any Subscription] {
            ended = true
            publisher = nil
            failures = nil
            pendingFailure = nil
            defer { upstream = nil; trigger = nil }
            return [upstream, trigger].compactMap { $0 }
        }

        /// The step recorded while the previous one ran, if any; else the thread is done.
        mutating func nextStep() -> Step? {
            if !ended, let failure = pendingFailure, let failures {
                pendingFailure = nil
                return .sendFailure(failure, failures)
            }
            if !ended, retryRequested, let publisher {
                retryRequested = false
                return .subscribe(publisher)
            }
            busy = false
            return nil
        }
    }

    let state: Locked<State>

    init(upstream: Upstream, failures: PassthroughSubject<Failure, Never>, downstream: Downstream) {
        state = Locked(State(downstream: downstream, publisher: upstream, failures: failures))
    }

    func start() {
        let publisher = state.withLock { state -> Upstream? in
            guard !state.ended else { return nil }
            state.busy = true
            return state.publisher
        }
        if let publisher { run(.subscribe(publisher)) }
    }

    func run(_ step: Step) {
        var next: Step? = step
        while let step = next {
            switch step {
            case .sendFailure(let failure, let failures): failures.send(failure)
            case .subscribe(let publisher): publisher.subscribe(UpstreamSide(parent: self))
            }
            next = state.withLock { $0.nextStep() }
        }
    }

    // MARK: The upstream

    func receiveUpstream(subscription: any Subscription) {
        let demand = state.withLock { state -> Subscribers.Demand? in
            guard !state.ended, state.upstream == nil, !state.waiting else { return nil }
            state.upstream = subscription
            return state.demand
        }
        guard let demand else { return subscription.cancel() }
        if demand > .none { subscription.request(demand) }
    }

    func receiveUpstream(_ input: Upstream.Output) -> Subscribers.Demand {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.ended else { return nil }
            state.demand -= 1
            return state.downstream
        }
        guard let downstream else { return .none }
        let more = downstream.receive(input)
        if more > .none { state.withLock { $0.demand += more } }
        return more
    }

    func receiveUpstream(completion: Subscribers.Completion<Failure>) {
        guard case .failure(let failure) = completion else {
            return end(with: .finished, from: \.upstream)
        }
        let step = state.withLock { state -> Step? in
            guard !state.ended, let failures = state.failures else { return nil }
            state.upstream = nil
            state.waiting = true
            guard !state.busy else {
                state.pendingFailure = failure
                return nil
            }
            state.busy = true
            return .sendFailure(failure, failures)
        }
        if let step { run(step) }
    }

    // MARK: The trigger

    func receiveTrigger(subscription: any Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard !state.ended, state.trigger == nil else { return false }
            state.trigger = subscription
            return true
        }
        if accepted { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    func receiveTriggerValue() {
        let step = state.withLock { state -> Step? in
            guard !state.ended, state.waiting, let publisher = state.publisher else { return nil }
            state.waiting = false
            guard !state.busy else {
                state.retryRequested = true
                return nil
            }
            state.busy = true
            return .subscribe(publisher)
        }
        if let step { run(step) }
    }

    func receiveTrigger(completion: Subscribers.Completion<TriggerFailure>) {
        switch completion {
        case .finished:
            end(with: .finished, from: \.trigger)
        case .failure(let error as Failure):
            end(with: .failure(error), from: \.trigger)
        case .failure:
            end(with: .finished, from: \.trigger)
        }
    }

    /// The one at `source` ended the stream, so it is not cancelled.
    func end(
        with completion: Subscribers.Completion<Failure>,
        from source: WritableKeyPath<State, (any Subscription)?>
    ) {
        state.end(with: completion) { state in
            state[keyPath: source] = nil
            return true
        }
    }

    // MARK: The downstream

    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let upstream = state.withLock { state -> (any Subscription)? in
            guard !state.ended else { return nil }
            state.demand += demand
            return state.upstream
        }
        upstream?.request(demand)
    }

    func cancel() {
        state.end(with: nil)
    }

    var description: String { "RetryWhen" }

    struct UpstreamSide: Subscriber, CustomStringConvertible {
        typealias Input = Upstream.Output
        let parent: RetryWhenSubscription
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) { parent.receiveUpstream(subscription: subscription) }
        func receive(_ input: Input) -> Subscribers.Demand { parent.receiveUpstream(input) }
        func receive(completion: Subscribers.Completion<Failure>) { parent.receiveUpstream(completion: completion) }
        var description: String { "RetryWhen" }
    }

    struct TriggerSide: Subscriber, CustomStringConvertible {
        typealias Input = TriggerOutput
        typealias Failure = TriggerFailure
        let parent: RetryWhenSubscription
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) { parent.receiveTrigger(subscription: subscription) }
        func receive(_ input: TriggerOutput) -> Subscribers.Demand {
            parent.receiveTriggerValue()
            return .none
        }
        func receive(completion: Subscribers.Completion<TriggerFailure>) {
            parent.receiveTrigger(completion: completion)
        }
        var description: String { "RetryWhen" }
    }
}
