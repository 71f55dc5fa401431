import Synchronization

/// The subscriber to the upstream and the subscription of the downstream, for every operator
/// built on a ``ReducerStep``.
///
/// ```text
/// awaiting ──upstream's subscription: pass self down, then .unlimited upstream──▶ subscribed
///     └── cancel: ignored (as in Combine; the subscription that comes later is taken)
/// subscribed ── step finishes early, or upstream finishes ──▶ ended
///     ├── failed (upstream, or a `try` closure) / cancelled ──▶ terminated
/// ended ── the downstream has asked (now or later): send the result, finish ──▶ terminated
///     └── cancelled ──▶ terminated
/// ```
/// As in Combine, the operator asks its upstream for `.unlimited` as soon as it has passed itself downstream,
/// whatever the downstream asks for: it sends at most one value, so the downstream's demand only decides when
/// that value (and the `.finished` after it) goes out. An upstream that ends before the downstream's first
/// request leaves its result, or its bare `.finished`, held until that request. A failure goes out at once.
///
/// Values run the step without the lock (the upstream's signals are serial, rule 3) behind one
/// atomic load that drops values arriving before the subscription or after the end; terminal
/// transitions are decided under the lock and acted on after it (rule 6), so a cancel racing
/// with the end delivers nothing, and the downstream and upstream are dropped once terminated.
@usableFromInline
final class ReducingSubscription<Step: ReducerStep, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Step.Output, Downstream.Failure == Step.Failure {
    @usableFromInline typealias Input = Step.Input
    @usableFromInline typealias Failure = Step.UpstreamFailure

    @usableFromInline
    enum Phase {
        case awaiting
        case subscribed((any Subscription))
        /// The upstream is done; `result` waits for the downstream's first request.
        case ended(result: Step.Output?)
        case terminated
    }

    @usableFromInline
    struct State {
        @usableFromInline var downstream: Downstream?
        @usableFromInline var phase = Phase.awaiting
        @usableFromInline var requested = false
        @inlinable init(downstream: Downstream) { self.downstream = downstream }
    }

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<State>
    /// True while the upstream's values are wanted (subscribed, not ended): the per-value check.
    @usableFromInline let receiving = Atomic<Bool>(false)
    @exclusivity(unchecked) @usableFromInline var step: Step
    @usableFromInline let description: String
    /// The step's starting result, kept apart for the mirror (the step itself runs unlocked).
    @usableFromInline let initial: Step.Output?

    @inlinable
    init(step: Step, downstream: Downstream) {
        self.step = step
        description = step.name
        initial = step.initial
        state = Locked(State(downstream: downstream))
    }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    func receive(subscription: any Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard case .awaiting = state.phase, let downstream = state.downstream else { return nil }
            state.phase = .subscribed(subscription)
            receiving.store(true, ordering: .releasing)
            return downstream
        }
        guard let downstream else {
            subscription.cancel()   // a second subscription, or one after a cancel
            return
        }
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard receiving.load(ordering: .acquiring) else { return .none }
        switch step.receive(input) {
        case .more:
            break
        case .finish(let output):
            end(.finished(output), cancellingUpstream: true)
        case .fail(let failure):
            end(.failed(failure), cancellingUpstream: true)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard receiving.load(ordering: .acquiring) else { return }
        switch completion {
        case .finished:
            end(.finished(step.finish()), cancellingUpstream: false)
        case .failure(let failure):
            end(.failed(step.mapFailure(failure)), cancellingUpstream: false)
        }
    }

    /// How the upstream's part ended.
    @usableFromInline
    enum Ending {
        case finished(Step.Output?)
        case failed(Step.Failure)
    }

    /// What the end (or the first request after it) does once the lock is released.
    @usableFromInline
    enum EndAction {
        case none
        case hold(upstream: (any Subscription)?)
        case send(Downstream, upstream: (any Subscription)?, Subscribers.Completion<Step.Failure>, Step.Output?)
    }

    /// Ends the upstream's part (once): a failure goes out at once, a result when the downstream has asked.
    @usableFromInline
    func end(_ ending: Ending, cancellingUpstream: Bool) {
        receiving.store(false, ordering: .relaxed)
        let action = state.withLock { state -> EndAction in
            guard case .subscribed(let upstream) = state.phase, let downstream = state.downstream else { return .none }
            switch ending {
            case .finished(let result) where !state.requested:
                state.phase = .ended(result: result)
                return .hold(upstream: upstream)
            case .finished(let result):
                state.phase = .terminated
                state.downstream = nil
                return .send(downstream, upstream: upstream, .finished, result)
            case .failed(let failure):
                state.phase = .terminated
                state.downstream = nil
                return .send(downstream, upstream: upstream, .failure(failure), nil)
            }
        }
        switch action {
        case .none:
            break
        case .hold(let upstream):
            if cancellingUpstream { upstream?.cancel() }
        case .send(let downstream, let upstream, let completion, let result):
            if cancellingUpstream { upstream?.cancel() }
            if let result { _ = downstream.receive(result) }
            downstream.receive(completion: completion)
        }
    }

    // MARK: Subscription (the downstream's calls)

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let action = state.withLock { state -> EndAction in
            guard !state.requested else { return .none }
            state.requested = true
            guard case .ended(let result) = state.phase, let downstream = state.downstream else { return .none }
            state.phase = .terminated
            state.downstream = nil
            return .send(downstream, upstream: nil, .finished, result)
        }
        if case .send(let downstream, _, let completion, let result) = action {
            if let result { _ = downstream.receive(result) }
            downstream.receive(completion: completion)
        }
    }

    /// Ends the subscription. A cancel before the upstream's subscription is ignored, as in
    /// Combine: the subscription that comes later is taken and asked for `.unlimited`.
    @usableFromInline
    func cancel() {
        let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
            if case .awaiting = state.phase { return (nil, nil) }
            receiving.store(false, ordering: .relaxed)
            defer { state.phase = .terminated; state.downstream = nil }
            guard case .subscribed(let upstream) = state.phase else { return (nil, state.downstream) }
            return (upstream, state.downstream)
        }
        _ = downstream   // released here, after the lock
        upstream?.cancel()
    }

    /// Combine's children: the downstream while the stream lasts, the result once the upstream
    /// has finished (`nil` before: the running result belongs to the upstream's thread), the
    /// starting result, and the upstream's status.
    @usableFromInline var customMirror: Mirror {
        let (downstream, phase) = state.withLock { ($0.downstream, $0.phase) }
        let result: Step.Output? = if case .ended(let result) = phase { result } else { nil }
        let status = switch phase {
        case .awaiting: "awaitingSubscription"
        case .subscribed(let upstream): "subscribed(\(upstream))"
        case .ended, .terminated: "terminal"
        }
        return Mirror(self, children: [
            ("downstream", downstream as Any),
            ("result", result as Any),
            ("initial", initial as Any),
            ("status", status),
        ])
    }
    @usableFromInline var playgroundDescription: Any { description }
}
