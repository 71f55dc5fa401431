/// The state of one `switchToLatest` subscription (``SwitchToLatestSubscription``), under its lock.
///
/// Only the *current* inner (the last the upstream sent) is listened to: each inner has an index, and a
/// signal from any other index is ignored. `delivery.demand` is the downstream's demand not yet met; a new
/// inner is asked for it when it subscribes, and afterwards every new demand passes to it. Values go through
/// a ``SerialDelivery``: the old inner's thread may still be delivering when the new inner sends. On a
/// switch, values of the old inner queued behind that delivery are dropped and their demand given back, so
/// nothing of a cancelled inner goes out after the switch.
///
/// ```text
/// no inner ──upstream sends P──▶ inner(i, awaiting) ──its subscription──▶ inner(i, subscribed)
///     ▲                               │  └──upstream sends P'──▶ inner(i+1, awaiting), i cancelled
///     └──────inner i finished─────────┘
/// no inner, upstream finished ──▶ finishing (queue, then .finished)
/// any failure ──▶ finishing (queue, then the failure; the other side cancelled)
/// cancel ──▶ cancelled (nothing more is delivered)
/// ```
@usableFromInline
struct SwitchToLatestState<Downstream: Subscriber>: SerialFanIn {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias Action = ListedFanInAction<Downstream>

    @usableFromInline var downstream: Downstream?
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    @usableFromInline var upstream = SubscriptionSlot.awaiting
    @usableFromInline var upstreamFinished = false
    /// The current inner's index and subscription; `nil` before the first and after it finished.
    @usableFromInline var current: (index: Int, slot: SubscriptionSlot)?
    @usableFromInline var nextIndex = 0
    /// The last inner that finished while current: a subscription it sends after is left
    /// alone, as Combine leaves it.
    @usableFromInline var finishedIndex: Int?
    @usableFromInline var ended = false

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    // MARK: The upstream

    @inlinable
    mutating func attachUpstream(_ subscription: any Subscription) -> Bool {
        !ended && upstream.attach(subscription)
    }

    /// The upstream sent a new inner: returns its index and the previous inner to cancel, or
    /// `nil` once the stream has ended (the publisher is ignored).
    @inlinable
    mutating func switchInner() -> (index: Int, previous: (any Subscription)?)? {
        guard !ended else { return nil }
        let previous = current?.slot.end()?.upstream
        // Values of the previous inner still queued would go out after its cancel: drop them,
        // and give their demand back for the new inner.
        delivery.withdrawQueued()
        current = (nextIndex, .awaiting)
        defer { nextIndex += 1 }
        return (nextIndex, previous)
    }

    @inlinable
    mutating func completeUpstream(_ completion: Subscribers.Completion<Failure>) -> Action {
        var action = Action()
        guard !ended else { return action }
        _ = upstream.end()
        upstreamFinished = true
        if case .failure = completion {
            end(with: completion, into: &action)
        } else if current == nil {
            end(with: .finished, into: &action)
        }
        return action
    }

    // MARK: The inners

    /// What becomes of a subscription an inner sends.
    @usableFromInline
    enum InnerSubscription {
        /// The current inner's first: ask it for this demand (possibly none).
        case attach(Subscribers.Demand)
        /// Not current (switched away, a second one, the stream ended): cancel it.
        case cancel
        /// From the inner that finished last: left alone, as Combine leaves it.
        case ignore
    }

    /// Inner `index` sent `subscription`.
    @inlinable
    mutating func attachInner(_ subscription: any Subscription, at index: Int) -> InnerSubscription {
        if !ended, current == nil, finishedIndex == index { return .ignore }
        guard !ended, current?.index == index, current?.slot.attach(subscription) == true else { return .cancel }
        return .attach(delivery.demand)
    }

    /// What becomes of a value an inner sends.
    @usableFromInline
    enum InnerValue {
        case deliver(Downstream)
        /// Queued behind the deliverer, or from an inner no longer current, or after the end.
        case drop
        /// The current inner sent it with none of the demand asked of it left (rule 2).
        case beyondDemand
    }

    /// Inner `index` sent `value`: the downstream if the caller delivers it now.
    @inlinable
    mutating func admit(_ value: Output, from index: Int) -> InnerValue {
        var action = Action()
        guard !ended, current?.index == index else { return .drop }
        guard action.offer(value, to: &delivery, downstream: downstream) else {
            return delivery.isFinishing ? .drop : .beyondDemand
        }
        return action.deliver.map { .deliver($0.0) } ?? .drop
    }

    /// Inner `index` completed. The current inner completing before its subscription traps
    /// (rule 1), as Combine's does.
    @inlinable
    mutating func completeInner(_ completion: Subscribers.Completion<Failure>, at index: Int) -> Action {
        var action = Action()
        guard !ended, let current, current.index == index else { return action }
        if current.slot.isAwaiting { Violation.signalBeforeSubscription("SwitchToLatest") }
        self.current = nil
        finishedIndex = index
        if case .failure = completion {
            end(with: completion, into: &action)
        } else if upstreamFinished {
            end(with: .finished, into: &action)
        }
        return action
    }

    // MARK: The downstream

    /// The downstream asked for `demand`: returns the current inner, to pass it on to.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
        guard !ended else { return nil }
        delivery.demand += demand
        return current?.slot.current
    }

    /// The deliverer is back with `more` demand from the downstream. If it delivered the value
    /// of `sender` (its own) and that inner is still current, the demand is returned to it, as
    /// Combine does (the third result); otherwise it is requested from the current inner.
    @inlinable
    mutating func delivered(
        more: Subscribers.Demand,
        returningTo sender: Int?
    ) -> (Action, SerialDelivery<Output, Failure>.Next, Subscribers.Demand) {
        var action = Action()
        guard downstream != nil else { return (action, .idle, .none) }  // cancelled meanwhile
        delivery.demand += more
        var returned = Subscribers.Demand.none
        if more > .none, !ended, let current {
            if current.index == sender {
                returned = more
            } else if let inner = current.slot.current {
                action.requests.append((inner, more))
            }  // else the inner is not subscribed yet: it is asked for `delivery.demand` when it is
        }
        let next = delivery.next(adding: .none)
        if case .completion = next { downstream = nil }
        return (action, next, returned)
    }

    @inlinable
    mutating func delivered(more: Subscribers.Demand) -> (UpstreamRequests, SerialDelivery<Output, Failure>.Next) {
        let (action, next, _) = delivered(more: more, returningTo: nil)
        return (action.requests, next)
    }

    /// The subscriptions to cancel at the end: the current inner first, then the upstream, in
    /// Combine's order.
    @inlinable
    mutating func endUpstreams() -> [any Subscription] {
        ended = true
        let subscriptions = [current?.slot.end()?.upstream, upstream.end()?.upstream].compactMap { $0 }
        current = nil
        return subscriptions
    }
}
