/// Hands a publisher's signals, one requested at a time, to a consumer loop on an actor.
///
/// States and transitions (`waiter` is the suspended consumer, `requested` whether one value
/// is outstanding upstream):
/// ```text
/// active(waiter: nil) ──next──▶ active(waiter)     [request .max(1) if subscribed and none outstanding]
/// active, not subscribed ──subscription──▶ active     [keep it; request .max(1) if a waiter]
/// active(waiter) ──value──▶ active(waiter: nil)                        [resume waiter: value]
/// active(waiter) ──completion──▶ done                             [resume waiter: completion]
/// active(waiter: nil) ──completion──▶ completed(c)            (next then returns c, → done)
/// active / completed ──cancel──▶ done                [cancel subscription, resume waiter: nil]
/// done ──subscription──▶ done                                      [cancel that subscription]
/// ```
/// A value with no waiter cannot happen: one value is requested only for a waiting consumer.
/// Any cancel also sets `isCancelled`, which the consumer checks on the actor before it calls
/// the closures with a signal it was resumed with.
///
/// `@inlinable` throughout, as ``IsolatedHandoff`` is: clients specialise it for their types
/// (unspecialised, metadata look-ups took most of each value's time).
@usableFromInline
struct IsolatedHandoffState<Input: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    enum Event: Sendable {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    @usableFromInline typealias Waiter = UnsafeContinuation<Event?, Never>

    @usableFromInline
    enum State: Sendable {
        case active(waiter: Waiter?, requested: Bool)
        case completed(Subscribers.Completion<Failure>)
        case done
    }

    @usableFromInline var state: State = .active(waiter: nil, requested: false)

    /// The upstream, while `active`. Kept apart from `state` so that a value's steps do not
    /// copy the existential out of the enum and back (those copies stood out in profiles of
    /// the isolated sink over a sequence).
    @usableFromInline var subscription: UpstreamSubscription?

    /// Set by ``cancel()``, whatever the state: a signal already handed to the consumer is
    /// then dropped before it reaches the closures (`done` alone does not tell a cancel from a
    /// delivered completion).
    @usableFromInline var isCancelled = false

    @inlinable init() {}

    @usableFromInline
    struct Action {
        @usableFromInline var request: (any Subscription)?
        @usableFromInline var cancel: (any Subscription)?
        @usableFromInline var resume: (Waiter, Event?)?

        @inlinable
        init(request: (any Subscription)? = nil, cancel: (any Subscription)? = nil, resume: (Waiter, Event?)? = nil) {
            self.request = request
            self.cancel = cancel
            self.resume = resume
        }
    }

    @inlinable
    mutating func next(_ waiter: Waiter) -> Action {
        switch state {
        case .active(_, let requested):
            let request = subscription != nil && !requested
            state = .active(waiter: waiter, requested: requested || request)
            return Action(request: request ? subscription?.base : nil)
        case .completed(let completion):
            state = .done
            return Action(resume: (waiter, .completion(completion)))
        case .done:
            return Action(resume: (waiter, nil))
        }
    }

    @inlinable
    mutating func receive(subscription: any Subscription) -> Action {
        guard case .active(let waiter, _) = state, self.subscription == nil else { return Action(cancel: subscription) }
        self.subscription = UpstreamSubscription(subscription)
        state = .active(waiter: waiter, requested: waiter != nil)
        return Action(request: waiter != nil ? subscription : nil)
    }

    @inlinable
    mutating func receive(_ input: Input) -> Action {
        guard case .active(let waiter?, _) = state else { return Action() }
        state = .active(waiter: nil, requested: false)
        return Action(resume: (waiter, .value(input)))
    }

    @inlinable
    mutating func receive(completion: Subscribers.Completion<Failure>) -> Action {
        guard case .active(let waiter, _) = state else { return Action() }
        subscription = nil
        if let waiter {
            state = .done
            return Action(resume: (waiter, .completion(completion)))
        }
        state = .completed(completion)
        return Action()
    }

    @inlinable
    mutating func cancel() -> Action {
        isCancelled = true
        switch state {
        case .active(let waiter, _):
            state = .done
            defer { subscription = nil }
            return Action(cancel: subscription?.base, resume: waiter.map { ($0, nil) })
        case .completed:
            state = .done
            return Action()
        case .done:
            return Action()
        }
    }
}
