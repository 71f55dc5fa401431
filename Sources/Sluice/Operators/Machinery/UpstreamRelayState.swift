/// The state of an ``UpstreamRelay``, changed only under its lock. Each event is a mutating
/// method that decides and returns what the relay must then do outside the lock (rule 6).
///
/// The link to the upstream, which the operator may replace each time one completes:
///
/// ```text
///  idle ──connect──▶ connecting(t) ──subscription of t──▶ connected(t) ──t completes──▶ between
///                        ▲                                                             │
///                        └──────────── connect: the operator subscribes the next one ───┘
///  between ──complete─────────────────────────────────────────────────────▶ terminated
///  between ──finishSending, demand > 0 (the value and .finished go out)───▶ terminated
///  between ──finishSending, no demand──▶ holding(value) ──next request───▶ terminated
///  any state ──cancel──▶ terminated
/// ```
///
/// `t` numbers each upstream in turn, so a signal from any but the current one is recognised and ignored.
/// `demand`, the downstream's outstanding demand, outlives every link: a new upstream is asked for what the
/// last one left unsent. A connect made while another runs (an upstream failing inside `subscribe`) is
/// queued for the running connect's loop, so the stack stays flat however many upstreams fail at once.
///
/// A relay that ``keepsBeyondDemand`` (`replaceEmpty`, which asks its upstream for `.unlimited` as Combine's
/// does) keeps the values that come without demand, in order, and one thread at a time (the *drainer*)
/// hands them out as demand comes; a value that comes while any are kept queues behind them, and a
/// completion waits for the last of them.
struct UpstreamRelayState<Downstream: Subscriber> {
    enum Link {
        case idle
        case connecting(Int)
        case connected(Int, any Subscription)
        case between
        case holding(Downstream.Input)
        case terminated
    }

    /// A connect waiting for the running one to return: the upstream's number and the call
    /// that subscribes it.
    struct Connect {
        let token: Int
        let subscribe: (Int) -> Void
    }

    private(set) var link = Link.idle
    private(set) var downstream: Downstream?
    private(set) var demand = Subscribers.Demand.none
    /// Whether a value was taken from an upstream, delivered or kept (for `replaceEmpty`).
    private(set) var received = false
    let keepsBeyondDemand: Bool
    /// Values kept for want of demand, oldest first (only if ``keepsBeyondDemand``).
    private var kept = FIFO<Downstream.Input>()
    /// A thread is out handing kept values to the downstream.
    private var draining = false
    /// The completion of a relay that still keeps values: it goes out after them.
    private var heldCompletion: Subscribers.Completion<Downstream.Failure>?
    private var lastToken = 0
    private var downstreamSubscribed = false
    private var connectRunning = false
    private var queued: Connect?
    /// The current upstream's `then` (a `(Subscribers.Completion<F>) -> Void` for its failure
    /// type `F`), kept here rather than in its subscriber, so that ending lets go of it and of
    /// what it holds (`append`'s suffix, `catch`'s handler) even when the upstream keeps its
    /// subscriber, as Combine's operators let go of theirs.
    private var then: Any?

    init(downstream: Downstream, keepsBeyondDemand: Bool) {
        self.downstream = downstream
        self.keepsBeyondDemand = keepsBeyondDemand
    }

    // MARK: Connecting (the operator)

    enum ConnectAction {
        /// Subscribe now; then call ``nextConnect()`` until it returns nil.
        case run(Connect)
        /// Another connect is running; it makes this one when it returns.
        case queued
        /// Terminated (cancelled meanwhile): subscribe nothing.
        case drop
    }

    mutating func connect(_ subscribe: @escaping (Int) -> Void) -> ConnectAction {
        switch link {
        case .idle, .between: break
        case .connecting, .connected, .holding, .terminated: return .drop
        }
        lastToken += 1
        link = .connecting(lastToken)
        let connect = Connect(token: lastToken, subscribe: subscribe)
        if connectRunning {
            queued = connect
            return .queued
        }
        connectRunning = true
        return .run(connect)
    }

    /// After a connect's subscribe returned: the one queued meanwhile, or nil, and then the
    /// running connect's loop ends.
    mutating func nextConnect() -> Connect? {
        guard let next = queued else {
            connectRunning = false
            return nil
        }
        queued = nil
        return next
    }

    // MARK: The upstream's signals

    enum AttachAction {
        /// Not the awaited subscription (a second one, or one after a cancel): cancel it.
        case reject
        /// The first upstream: hand the relay to the downstream, then request what was asked
        /// before (through the upstream's subscriber, which is the relay's subscription too).
        case subscribeDownstream(Downstream, Subscribers.Demand)
        /// A later upstream: request what the downstream still wants (none if it wants none).
        case carry(Subscribers.Demand)
    }

    mutating func attach(_ subscription: any Subscription, token: Int) -> AttachAction {
        guard case .connecting(token) = link, let downstream else { return .reject }
        link = .connected(token, subscription)
        if downstreamSubscribed { return .carry(demand) }
        downstreamSubscribed = true
        return .subscribeDownstream(downstream, demand)
    }

    enum ValueAction {
        /// Send it to the downstream (one unit of demand is taken).
        case deliver(Downstream)
        /// Not the current upstream's, or the relay has terminated: dropped.
        case drop
        /// From the current upstream before its subscription reached the relay (rule 1).
        case beforeSubscription
        /// From the current upstream beyond the downstream's outstanding demand (rule 2).
        case beyondDemand
        /// Kept until there is demand for it (a relay that ``keepsBeyondDemand``).
        case kept
    }

    /// Takes one unit of demand for `value` from upstream `token`, keeps it, or says why it cannot go to
    /// the downstream (only an upstream that breaks rule 1 or 2 sends one that is not dropped for being
    /// late). `acceptsEarly`: a value before the upstream's
    /// subscription goes to the downstream if it has demand (`retry`'s later attempts).
    mutating func take(_ value: Downstream.Input, token: Int, acceptsEarly: Bool = false) -> ValueAction {
        switch link {
        case .connecting(token) where !acceptsEarly:
            return .beforeSubscription
        case .connecting(token), .connected(token, _):
            guard let downstream else { return .drop }
            if keepsBeyondDemand, draining || !kept.isEmpty || demand == .none {
                // While no one drains, kept values mean the demand is spent: the next request drains them.
                kept.append(value)
                received = true
                return .kept
            }
            guard demand > .none else { return .beyondDemand }
            demand -= 1
            received = true
            return .deliver(downstream)
        default:
            return .drop
        }
    }

    /// The downstream returned `more` from `receive(_:)`; the subscription of upstream `token`, if it is the
    /// current one and subscribed (for a relay that requests `more` from it rather than returning it).
    @discardableResult
    mutating func add(_ more: Subscribers.Demand, token: Int) -> (any Subscription)? {
        if case .terminated = link { return nil }
        demand += more
        if case .connected(token, let subscription) = link { return subscription }
        return nil
    }

    enum CompletionAction {
        /// It was the current upstream's: the link is now `between`, and the operator must
        /// connect, complete or finish with a value.
        case current
        /// The relay has terminated: ignored.
        case ignore
        /// From upstream `token` before its subscription reached the relay (rule 1).
        case beforeSubscription
        /// From an upstream that already completed, while the relay goes on (rule 4).
        case afterCompletion
    }

    /// Keeps upstream `token`'s `then` until it completes (nothing once terminated).
    mutating func keep(then: Any, token: Int) {
        guard case .connecting(token) = link else { return }
        self.then = then
    }

    /// Upstream `token` completed: what the relay does, and (for the current one) its `then`.
    /// With `acceptsEarly`, the current upstream's completion counts before its subscription.
    mutating func upstreamCompleted(token: Int, acceptsEarly: Bool) -> (CompletionAction, then: Any?) {
        let action = completionAction(token: token, acceptsEarly: acceptsEarly)
        guard case .current = action else { return (action, nil) }
        defer { then = nil }
        return (action, then)
    }

    private mutating func completionAction(token: Int, acceptsEarly: Bool) -> CompletionAction {
        switch link {
        case .connected(token, _):
            link = .between
            return .current
        case .connecting(token) where acceptsEarly:
            link = .between
            return .current
        case .terminated:
            return .ignore
        case .connecting(token):
            return .beforeSubscription
        case .idle, .connecting, .connected, .between, .holding:
            return .afterCompletion
        }
    }

    // MARK: Ending (the operator)

    /// Ends with `completion`; the downstream to send it to, unless already terminated or the completion
    /// waits for the drainer, behind kept values.
    mutating func complete(_ completion: Subscribers.Completion<Downstream.Failure>) -> Downstream? {
        guard case .between = link else { return nil }
        if draining || !kept.isEmpty {
            heldCompletion = completion
            return nil
        }
        return terminate().downstream
    }

    enum FinishAction {
        /// Send the value, then `.finished`.
        case send(Downstream, Downstream.Input)
        /// Held until the downstream requests (or cancels).
        case held
        /// Already terminated.
        case none
    }

    /// Ends with one last value, which needs demand, then `.finished`.
    mutating func finishSending(_ value: Downstream.Input) -> FinishAction {
        guard case .between = link else { return .none }
        guard demand > .none else {
            link = .holding(value)
            return .held
        }
        guard let downstream = terminate().downstream else { return .none }
        return .send(downstream, value)
    }

    // MARK: The downstream's calls

    enum RequestAction {
        case forward(any Subscription)
        /// Kept values now have demand: the caller is the drainer (forwarding the request first, if any).
        case drain(forward: (any Subscription)?, Downstream)
        /// The held last value now has demand: send it, then `.finished`.
        case send(Downstream, Downstream.Input)
        /// Nothing to do now (counted for the next upstream, or terminated).
        case none
    }

    mutating func request(_ more: Subscribers.Demand) -> RequestAction {
        switch link {
        case .terminated:
            return .none
        case .holding(let value):
            guard more > .none, let downstream = terminate().downstream else { return .none }
            return .send(downstream, value)
        case .connected(_, let subscription):
            demand += more
            if let downstream = startDraining() { return .drain(forward: subscription, downstream) }
            return .forward(subscription)
        case .idle, .connecting, .between:
            demand += more
            if let downstream = startDraining() { return .drain(forward: nil, downstream) }
            return .none
        }
    }

    /// Makes the caller the drainer if kept values wait and no one drains them.
    mutating func startDraining() -> Downstream? {
        guard !draining, !kept.isEmpty, demand > .none, let downstream else { return nil }
        draining = true
        return downstream
    }

    enum DrainStep {
        case value(Downstream.Input)
        /// The last kept value went out and the completion was waiting for it: the relay has terminated.
        case completion(Downstream, Subscribers.Completion<Downstream.Failure>)
        /// Nothing to hand out now: the drainer is gone.
        case idle
    }

    /// The drainer, back with the demand the downstream returned (`.none` to begin with): what it
    /// hands out next.
    mutating func nextKept(adding more: Subscribers.Demand) -> DrainStep {
        if case .terminated = link {
            draining = false
            return .idle
        }
        demand += more
        if demand > .none, let value = kept.popFirst() {
            demand -= 1
            return .value(value)
        }
        draining = false
        guard kept.isEmpty, let completion = heldCompletion, let downstream = terminate().downstream else {
            return .idle
        }
        return .completion(downstream, completion)
    }

    /// What ending took away, for the caller to cancel or release outside the lock.
    struct Ended {
        var upstream: (any Subscription)?
        var downstream: Downstream?
        var queued: Connect?
        var then: Any?
        var kept: FIFO<Downstream.Input>
    }

    /// Cancels; nil if already terminated.
    mutating func cancel() -> Ended? {
        if case .terminated = link { return nil }
        return terminate()
    }

    private mutating func terminate() -> Ended {
        var ended = Ended(upstream: nil, downstream: downstream, queued: queued, then: then, kept: kept)
        if case .connected(_, let subscription) = link { ended.upstream = subscription }
        link = .terminated
        downstream = nil
        queued = nil
        then = nil
        kept = FIFO()
        heldCompletion = nil
        return ended
    }
}
