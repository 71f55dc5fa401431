import Sluice

/// The subscription of a `Publishers.RetryWhen`: the downstream's subscription, the
/// subscriber of each upstream attempt (`UpstreamSide`) and of the trigger (`TriggerSide`).
///
/// Its state is under one lock; every callout (to the downstream, a subscription, the
/// failures' subject or the upstream publisher) is made after unlocking (rule 6). Sending a
/// failure into the subject and subscribing the upstream are the two steps of a retry, and
/// either may synchronously cause the other (a trigger that maps each failure to a value, an
/// upstream that fails at once). One thread at a time runs them (`busy`): a step caused
/// while it runs is recorded (`pendingFailure`, `retryRequested`) and run by its loop, so the
/// stack stays flat however many retries follow.
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

    /// A step of a retry, run outside the lock.
    enum Step {
        case sendFailure(Failure, PassthroughSubject<Failure, Never>)
        case subscribe(Upstream)
    }

    struct State: EndingState {
        /// `nil` once ended.
        var downstream: Downstream?
        /// The publisher to retry; `nil` once ended.
        var publisher: Upstream?
        var failures: PassthroughSubject<Failure, Never>?
        /// The current attempt's subscription; `nil` between a failure and the retry.
        var upstream: (any Subscription)?
        var trigger: (any Subscription)?
        /// The downstream's demand not yet met by a value.
        var demand = Subscribers.Demand.none
        /// The upstream failed; the next trigger value retries.
        var waiting = false
        /// A thread is running retry steps.
        var busy = false
        var pendingFailure: Failure?
        var retryRequested = false
        var ended = false

        /// Ends the stream: lets go of everything; returns the subscriptions to cancel.
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

    /// Subscribes the upstream for the first time.
    func start() {
        let publisher = state.withLock { state -> Upstream? in
            guard !state.ended else { return nil }
            state.busy = true
            return state.publisher
        }
        if let publisher { run(.subscribe(publisher)) }
    }

    /// Runs `step`, then the steps it caused, until none is left.
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

    /// The upstream or the trigger (the one at `source`, which is not cancelled) ended the
    /// stream with `completion`.
    func end(with completion: Subscribers.Completion<Failure>, from source: WritableKeyPath<State, (any Subscription)?>) {
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

    /// `"RetryWhen"`.
    var description: String { "RetryWhen" }

    /// The subscriber of one upstream attempt: it passes every signal on.
    struct UpstreamSide: Subscriber, CustomStringConvertible {
        typealias Input = Upstream.Output
        let parent: RetryWhenSubscription
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) { parent.receiveUpstream(subscription: subscription) }
        func receive(_ input: Input) -> Subscribers.Demand { parent.receiveUpstream(input) }
        func receive(completion: Subscribers.Completion<Failure>) { parent.receiveUpstream(completion: completion) }
        var description: String { "RetryWhen" }
    }

    /// The trigger's subscriber: each value may retry, its ending ends the stream.
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
        func receive(completion: Subscribers.Completion<TriggerFailure>) { parent.receiveTrigger(completion: completion) }
        var description: String { "RetryWhen" }
    }
}
