/// What a ``ValueAwaiter`` keeps while one task awaits a publisher's first, only or last value. States and
/// transitions (`done` is final; every path into it resumes the awaiting task exactly once and gives back
/// the upstream subscription to cancel when it is still live):
/// ```text
/// waiting ──subscription──▶ waiting(subscription)                    [request the demand]
/// waiting ──value, .first──▶ done                        [resume: value, cancel upstream]
/// waiting ──value, .only, none yet──▶ waiting(kept)
/// waiting ──value, .only, one kept──▶ done            [resume: moreThanOne, cancel upstream]
/// waiting ──value, .last──▶ waiting(kept)
/// waiting ──completion──▶ done                  [resume: kept value / nil / failure]
/// waiting ──cancel (awaiting task)──▶ done              [resume: cancelled, cancel upstream]
/// done ──subscription──▶ done                                     [cancel that subscription]
/// ```
/// The continuation is installed before subscribing; a cancel that comes first is
/// remembered and resumes it as soon as it is installed.
@usableFromInline
struct ValueAwaiterState<Output: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    enum Mode: Sendable { case first, only, last }

    @usableFromInline
    enum Outcome: Sendable {
        case value(Output?)
        case failure(Failure)
        case moreThanOne
        case cancelled
    }

    /// Unchecked (a checked one allocates per await): it is installed before subscribing, when the state is
    /// `waiting` or `cancelledEarly`, and every path from there into `done` resumes it exactly once.
    @usableFromInline typealias Continuation = UnsafeContinuation<Outcome, Never>

    @usableFromInline
    enum State: Sendable {
        case waiting(continuation: Continuation?, subscription: UpstreamSubscription?, kept: Output?)
        case cancelledEarly
        case done
    }

    @usableFromInline let mode: Mode
    @usableFromInline var state: State = .waiting(continuation: nil, subscription: nil, kept: nil)

    @inlinable init(mode: Mode) { self.mode = mode }

    /// The demand to request from the upstream.
    @inlinable
    var demand: Subscribers.Demand {
        switch mode {
        case .first: .max(1)
        case .only: .max(2)
        case .last: .unlimited
        }
    }

    /// What to do after unlocking: resume the awaiting task and/or cancel a subscription.
    @usableFromInline
    struct Action {
        @usableFromInline var resume: (Continuation, Outcome)?
        @usableFromInline var cancel: (any Subscription)?
        @usableFromInline var request: (any Subscription)?

        @inlinable
        init(
            resume: (Continuation, Outcome)? = nil,
            cancel: (any Subscription)? = nil,
            request: (any Subscription)? = nil
        ) {
            self.resume = resume
            self.cancel = cancel
            self.request = request
        }
    }

    @inlinable
    mutating func install(_ continuation: Continuation) -> Action {
        switch state {
        case .waiting(_, let subscription, let kept):
            state = .waiting(continuation: continuation, subscription: subscription, kept: kept)
            return Action()
        case .cancelledEarly:
            state = .done
            return Action(resume: (continuation, .cancelled))
        case .done:
            return Action()
        }
    }

    @inlinable
    mutating func receive(subscription: any Subscription) -> Action {
        guard case .waiting(let continuation, nil, let kept) = state else {
            return Action(cancel: subscription)
        }
        state = .waiting(continuation: continuation, subscription: UpstreamSubscription(subscription), kept: kept)
        return Action(request: subscription)
    }

    @inlinable
    mutating func receive(_ value: Output) -> Action {
        guard case .waiting(let continuation, let subscription, let kept) = state else { return Action() }
        switch mode {
        case .first:
            state = .done
            return Action(resume: continuation.map { ($0, .value(value)) }, cancel: subscription?.base)
        case .only where kept != nil:
            state = .done
            return Action(resume: continuation.map { ($0, .moreThanOne) }, cancel: subscription?.base)
        case .only, .last:
            state = .waiting(continuation: continuation, subscription: subscription, kept: value)
            return Action()
        }
    }

    @inlinable
    mutating func receive(completion: Subscribers.Completion<Failure>) -> Action {
        guard case .waiting(let continuation, _, let kept) = state else { return Action() }
        state = .done
        let outcome: Outcome
        switch completion {
        case .finished: outcome = .value(kept)
        case .failure(let error): outcome = .failure(error)
        }
        return Action(resume: continuation.map { ($0, outcome) })
    }

    @inlinable
    mutating func cancel() -> Action {
        switch state {
        case .waiting(nil, let subscription, _):
            state = .cancelledEarly
            return Action(cancel: subscription?.base)
        case .waiting(let continuation?, let subscription, _):
            state = .done
            return Action(resume: (continuation, .cancelled), cancel: subscription?.base)
        case .cancelledEarly, .done:
            return Action()
        }
    }
}
