/// The subscriber to the upstream and the subscription of the downstream, for every operator
/// built on a ``ReducerStep``.
///
/// ```text
/// subscribed ──first request: .unlimited upstream──▶ requested
///     │  └── finished / failed / finished early / cancelled ──▶ terminated
///     ├── upstream finished, a result to send ──▶ holding ──first request: send it──▶ terminated
///     └── failed / cancelled ──▶ terminated
/// ```
/// A result never goes out without demand: an upstream that finishes before the first
/// request (an empty sequence) leaves the result held until that request, as in Combine.
/// Values run the step without the lock (the upstream's signals are serial, rule 3); the
/// terminal transition is decided under the lock, so a cancel racing with the end delivers
/// nothing, and the downstream and upstream are dropped when it is reached.
@usableFromInline
final class ReducingSubscription<Step: ReducerStep, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Step.Output, Downstream.Failure == Step.Failure {
    @usableFromInline typealias Input = Step.Input
    @usableFromInline typealias Failure = Step.UpstreamFailure

    @usableFromInline
    struct State {
        @usableFromInline var downstream: Downstream?
        @usableFromInline var upstream: (any Subscription)?
        @usableFromInline var requested = false
        @usableFromInline var terminated = false
        /// The result, when the upstream finished before the downstream's first request.
        @usableFromInline var held: Downstream.Input?
        @inlinable init(downstream: Downstream) { self.downstream = downstream }
    }

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<State>
    @exclusivity(unchecked) @usableFromInline var step: Step
    @usableFromInline let description: String

    @inlinable
    init(step: Step, downstream: Downstream) {
        self.step = step
        description = step.name
        state = Locked(State(downstream: downstream))
    }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    func receive(subscription: any Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream == nil, !state.terminated else { return nil }
            state.upstream = subscription
            return state.downstream
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        // The downstream requests through `self`, which forwards to `subscription`.
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        switch step.receive(input) {
        case .more:
            break
        case .finish(let output):
            end(with: output, completion: .finished, cancellingUpstream: true)
        case .fail(let failure):
            end(with: nil, completion: .failure(failure), cancellingUpstream: true)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            end(with: step.finish(), completion: .finished, cancellingUpstream: false)
        case .failure(let failure):
            end(with: nil, completion: .failure(step.mapFailure(failure)), cancellingUpstream: false)
        }
    }

    /// Terminates (once), then sends `output` if any and `completion`, outside the lock.
    @usableFromInline
    func end(with output: Step.Output?, completion: Subscribers.Completion<Step.Failure>, cancellingUpstream: Bool) {
        let taken = state.withLock { state -> (Downstream, (any Subscription)?)? in
            guard !state.terminated, state.held == nil, let downstream = state.downstream else { return nil }
            if let output, !state.requested {
                state.held = output  // sent with the first request
                state.upstream = nil
                return nil
            }
            state.terminated = true
            defer { state.downstream = nil; state.upstream = nil }
            return (downstream, state.upstream)
        }
        guard let (downstream, upstream) = taken else { return }
        if cancellingUpstream { upstream?.cancel() }
        if let output { _ = downstream.receive(output) }
        downstream.receive(completion: completion)
    }

    // MARK: Subscription (the downstream's calls)

    /// What the first request does.
    @usableFromInline
    enum RequestAction {
        case none
        case request(any Subscription)
        /// The upstream finished before it: send the held result and finish.
        case send(Downstream, Downstream.Input)
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let action = state.withLock { state -> RequestAction in
            guard !state.requested, !state.terminated else { return .none }
            state.requested = true
            if let held = state.held, let downstream = state.downstream {
                state.terminated = true
                state.held = nil
                state.downstream = nil
                return .send(downstream, held)
            }
            return state.upstream.map(RequestAction.request) ?? .none
        }
        switch action {
        case .none:
            break
        case .request(let upstream):
            upstream.request(.unlimited)
        case .send(let downstream, let result):
            _ = downstream.receive(result)
            downstream.receive(completion: .finished)
        }
    }

    @usableFromInline
    func cancel() {
        let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
            state.terminated = true
            defer { state.upstream = nil; state.downstream = nil; state.held = nil }
            return (state.upstream, state.downstream)
        }
        _ = downstream   // released here, after the lock
        upstream?.cancel()
    }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
