/// What a ``GuardedOperatorSubscriber`` does with a signal that comes before its upstream
/// subscription (which no well-behaved publisher sends), as Combine's operator of that kind does.
@usableFromInline
enum EarlySignals: Sendable {
    /// Trap (rule 1): a value, a completion or a request before the subscription. A cancel
    /// before it ends the subscriber, so the subscription that comes later is cancelled.
    case trap
    /// A value before the subscription goes through the step to the downstream; a completion, a
    /// request or a cancel before it is ignored, and so is the step's end (the last of a range,
    /// a thrown error): nothing ends until the subscription has come (Combine's `tryMap`).
    case passValues
    /// Everything before the subscription is ignored (Combine's `drop(while:)`).
    case ignore
    /// A value before the subscription goes through the step to the downstream, and so does a
    /// completion, which ends the subscriber (the subscription that comes later is cancelled);
    /// a request or a cancel before it is ignored. Combine's `encode` and `decode`.
    case passValuesAndCompletions
    /// The downstream gets the subscription when it subscribes, before the upstream's comes (the publisher
    /// calls ``GuardedOperatorSubscriber/handDown()`` first). Until the upstream's subscription: a value or a
    /// completion goes to the downstream as with `passValuesAndCompletions`, requests add up and are asked of
    /// the upstream when its subscription comes (with the step's ``OperatorStep/upstreamSubscribed()``), a
    /// cancel is ignored. Combine's `dropFirst`.
    case handDownFirst

    @inlinable var passesValues: Bool { self != .trap && self != .ignore }
    @inlinable var passesCompletions: Bool { self == .passValuesAndCompletions || self == .handDownFirst }
    /// Whether a request of `.none` traps (rule 2), at any time, as in Combine's operators of
    /// that kind; the others pass it on.
    @inlinable var trapsOnZeroDemand: Bool { self == .trap || self == .ignore || self == .handDownFirst }
}

/// The subscriber to the upstream *and* the subscription of the downstream, for the one-for-one operators
/// whose Combine implementation does not hand the upstream subscription on (``OperatorSubscriber`` does, for
/// `map`, `filter` and the rest): it runs the same ``OperatorStep``, and adds what Combine's wrapper does:
///
/// ```text
/// awaiting ──upstream's subscription: pass self down──▶ subscribed ──step ends, completion,
///    │                                                      │        cancel──▶ terminated
///    └── early signals: see EarlySignals ───────────────────┘
/// ```
/// (With ``EarlySignals/handDownFirst`` the downstream has the subscription already, and the
/// upstream's subscription is asked for the demand gathered while awaiting instead.)
/// - a second subscription is cancelled;
/// - once terminated (the step failed or finished, the upstream completed, the downstream
///   cancelled), values, completions, requests and cancels are ignored, and nothing more
///   reaches the upstream or the downstream;
/// - the downstream sees the operator's own name in `print()` ("TryMap", "RemoveDuplicates").
///
/// Each signal reads the status under the lock and calls out after it (rule 6); the step runs
/// without the lock (the upstream's signals are serial, rule 3).
@usableFromInline
final class GuardedOperatorSubscriber<Step: OperatorStep, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Step.Output, Downstream.Failure == Step.Failure {
    @usableFromInline typealias Input = Step.Input
    @usableFromInline typealias Failure = Step.UpstreamFailure

    @usableFromInline
    enum Status {
        /// `pending`: what the downstream asked for so far (only with `handDownFirst`).
        case awaiting(Downstream, pending: Subscribers.Demand)
        case subscribed(any Subscription, Downstream)
        /// Both let go (rule 4).
        case terminated

        /// The downstream a value goes to now, if any (`early` decides before the subscription).
        @inlinable
        func receiver(early: EarlySignals) -> Downstream? {
            switch self {
            case .subscribed(_, let downstream): downstream
            case .awaiting(let downstream, _) where early.passesValues: downstream
            case .awaiting, .terminated: nil
            }
        }
    }

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let early: EarlySignals
    @usableFromInline let status: Locked<Status>
    @exclusivity(unchecked) @usableFromInline var step: Step
    @usableFromInline let description: String
    @usableFromInline let mirror: StepMirror

    /// `mirror`: what the mirror shows, the step's choice unless the operator says otherwise
    /// (one step type serves `drop(while:)` and `prefix(while:)`, another `tryMap` and the coders).
    @inlinable
    init(step: Step, downstream: Downstream, early: EarlySignals, mirror: StepMirror = Step.mirror) {
        self.step = step
        self.early = early
        self.mirror = mirror
        status = Locked(.awaiting(downstream, pending: .none))
        description = step.name
    }

    // MARK: Subscriber (the upstream's signals)

    /// With ``EarlySignals/handDownFirst``: gives the downstream this subscription, before the
    /// publisher subscribes it to the upstream.
    @inlinable
    func handDown() {
        let downstream = status.withLock { status -> Downstream? in
            guard case .awaiting(let downstream, _) = status else { return nil }
            return downstream
        }
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let (downstream, pending) = status.withLock { status -> (Downstream?, Subscribers.Demand) in
            guard case .awaiting(let downstream, let pending) = status else { return (nil, .none) }
            status = .subscribed(subscription, downstream)
            return (downstream, pending)
        }
        guard let downstream else { return subscription.cancel() }   // a second one, or after a cancel
        guard early == .handDownFirst else { return downstream.receive(subscription: self) }
        let demand = pending + step.upstreamSubscribed()
        if demand != .none { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let (downstream, beforeSubscription) = status.withLock { status -> (Downstream?, Bool) in
            if case .awaiting = status { return (status.receiver(early: early), true) }
            return (status.receiver(early: early), false)
        }
        if beforeSubscription && early == .trap { Violation.signalBeforeSubscription(description) }
        guard let downstream else { return .none }
        let result = step.receive(input)
        // With `passValues` a step's end before the subscription is not acted on, as in Combine: nothing ends
        // and no completion goes out (the upstream's own, once subscribed, does).
        if beforeSubscription && early == .passValues { return result.deliverWithoutEnding(to: downstream) }
        return result.deliver(to: downstream, ending: terminate)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let (downstream, beforeSubscription) = status.withLock { status -> (Downstream?, Bool) in
            switch status {
            case .awaiting(let downstream, _) where early.passesCompletions:
                status = .terminated
                return (downstream, true)
            case .awaiting: return (nil, true)
            case .subscribed(_, let downstream):
                status = .terminated
                return (downstream, false)
            case .terminated: return (nil, false)
            }
        }
        if beforeSubscription && early == .trap { Violation.signalBeforeSubscription(description) }
        switch completion {
        case .finished: downstream?.receive(completion: .finished)
        case .failure(let failure): downstream?.receive(completion: .failure(step.mapFailure(failure)))
        }
    }

    /// Terminates (letting go of both sides) and hands back the upstream, for the caller to
    /// cancel after unlocking.
    @inlinable @discardableResult
    func terminate() -> (any Subscription)? {
        let (upstream, downstream) = status.withLock { status -> ((any Subscription)?, Downstream?) in
            defer { status = .terminated }
            switch status {
            case .subscribed(let upstream, let downstream): return (upstream, downstream)
            case .awaiting(let downstream, _): return (nil, downstream)
            case .terminated: return (nil, nil)
            }
        }
        _ = downstream   // released here, after the lock
        return upstream
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none && early.trapsOnZeroDemand { Violation.zeroDemandRequested() }
        let (upstream, beforeSubscription) = status.withLock { status -> ((any Subscription)?, Bool) in
            switch status {
            case .awaiting(let downstream, let pending) where early == .handDownFirst:
                status = .awaiting(downstream, pending: pending + demand)
                return (nil, false)
            case .awaiting: return (nil, true)
            case .subscribed(let upstream, _): return (upstream, false)
            case .terminated: return (nil, false)
            }
        }
        if beforeSubscription && early == .trap { Violation.requestBeforeSubscription(description) }
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        if early != .trap, status.withLock({ if case .awaiting = $0 { true } else { false } }) {
            return   // ignored, as in Combine: the subscription that comes later is taken
        }
        terminate()?.cancel()
    }

    @usableFromInline var customMirror: Mirror {
        let (downstream, upstream, finished) = status.withLock { status -> (Any?, (any Subscription)?, Bool) in
            switch status {
            case .awaiting(let downstream, _): (downstream, nil, false)
            case .subscribed(let upstream, let downstream): (downstream, upstream, false)
            case .terminated: (nil, nil, true)
            }
        }
        return switch mirror {
        case .empty: Mirror(self, children: [:])
        case .downstream: Mirror(self, children: ["downstream": downstream as Any])
        case .coder:
            Mirror(
                self,
                children: [
                    "downstream": downstream as Any, "finished": finished, "upstreamSubscription": upstream as Any
                ]
            )
        }
    }
    @usableFromInline var playgroundDescription: Any { description }
}

extension Publisher {
    /// Subscribes `subscriber` through `step`, run by a ``GuardedOperatorSubscriber`` that
    /// traps on signals before the subscription, its closures on `isolation`: how SluiceExt
    /// writes an operator of one step (`prefix(while:behavior:)`).
    @inlinable
    package func receive<Step: OperatorStep, S: Subscriber>(
        subscriber: S, through step: Step, isolation: (any Actor)?
    ) where Step.Input == Output, Step.UpstreamFailure == Failure, S.Input == Step.Output, S.Failure == Step.Failure {
        receive(
            subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .trap),
            isolation: isolation
        )
    }
}
