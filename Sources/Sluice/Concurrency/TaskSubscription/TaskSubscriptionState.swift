/// The demand gate between a subscription's callers and the one task that produces values: requests come
/// from any thread; the task takes the demand accumulated so far in one step and spends it without a lock.
///
/// States and transitions:
/// ```text
/// subscribing(pending) ──subscriptionDelivered, pending > 0──▶ running(0, nil)  [start task]
/// subscribing(pending) ──subscriptionDelivered, pending = 0──▶ idle
/// idle ──request(d)──▶ running(d, nil)                                           [start task]
/// running(p, nil) ──request(d)──▶ running(p + d, nil)
/// running(0, waiter) ──request(d)──▶ running(0, nil)                        [resume waiter: d]
/// running(0, waiter + offer) ──request(d)──▶ running(0, nil)
///                                   [deliver the offered value, resume waiter: d − 1 + returned]
/// running(p > 0, nil) ──takeDemand──▶ running(0, nil)                            [returns p]
/// running(0, nil) ──takeDemand──▶ running(0, waiter)                               [suspend]
/// running(0, nil) ──takeDemand(offer)──▶ running(0, waiter + offer)                 [suspend]
/// running ──finish──▶ finished                                          [deliver completion]
/// subscribing / idle / running ──cancel──▶ cancelled   [cancel task, resume waiter with nil]
/// cancelled / finished ──anything──▶ unchanged                                   [nothing]
/// ```
/// The task handle arrives after `start` (made outside the lock): `attach` stores it, or hands it back to
/// be cancelled when a cancel came first. An offer is a value the suspended task has ready
/// (``TaskSubscriptionOffer``): the request that takes the waiter delivers it before resuming the task,
/// which stays suspended until then, so the subscriber is still signalled by one party at a time.
struct TaskSubscriptionState: Sendable {
    private enum State: Sendable {
        case subscribing(pending: Subscribers.Demand)
        case idle
        case running(pending: Subscribers.Demand, waiter: UnsafeContinuation<Subscribers.Demand?, Never>?,
                     offer: (any TaskSubscriptionOffer)?, task: Task<Void, Never>?)
        case finished
        case cancelled
    }

    private var state: State = .subscribing(pending: .none)

    /// What the caller of ``request(_:)`` does after unlocking.
    enum RequestAction {
        case none
        case startTask
        case resume(UnsafeContinuation<Subscribers.Demand?, Never>, Subscribers.Demand)
        /// Deliver the offer, then resume the waiter with the demand left.
        case deliverOffer(
            any TaskSubscriptionOffer, UnsafeContinuation<Subscribers.Demand?, Never>, Subscribers.Demand
        )
    }

    mutating func request(_ demand: Subscribers.Demand) -> RequestAction {
        switch state {
        case .subscribing(let pending):
            state = .subscribing(pending: pending + demand)
            return .none
        case .idle:
            state = .running(pending: demand, waiter: nil, offer: nil, task: nil)
            return .startTask
        case .running(let pending, let waiter, let offer, let task):
            if let waiter {
                state = .running(pending: .none, waiter: nil, offer: nil, task: task)
                if let offer { return .deliverOffer(offer, waiter, demand) }
                return .resume(waiter, demand)
            }
            state = .running(pending: pending + demand, waiter: nil, offer: nil, task: task)
            return .none
        case .finished, .cancelled:
            return .none
        }
    }

    /// `receive(subscription:)` has returned; returns `true` if the task should start now.
    mutating func subscriptionDelivered() -> Bool {
        guard case .subscribing(let pending) = state else { return false }
        if pending == .none {
            state = .idle
            return false
        }
        state = .running(pending: pending, waiter: nil, offer: nil, task: nil)
        return true
    }

    /// Stores the started task; returns it back if it must be cancelled at once.
    mutating func attach(_ task: Task<Void, Never>) -> Task<Void, Never>? {
        switch state {
        case .running(let pending, let waiter, let offer, _):
            state = .running(pending: pending, waiter: waiter, offer: offer, task: task)
            return nil
        case .cancelled:
            return task
        case .subscribing, .idle, .finished:
            return nil
        }
    }

    /// What the producing task does when it needs demand.
    enum TakeDemandAction {
        case demand(Subscribers.Demand)
        case suspended
        case stop
    }

    /// Suspends the task until demand comes, with `offer` for the request that brings it.
    mutating func takeDemand(
        _ waiter: UnsafeContinuation<Subscribers.Demand?, Never>, offering offer: (any TaskSubscriptionOffer)? = nil
    ) -> TakeDemandAction {
        switch state {
        case .running(let pending, _, _, let task):
            if pending > .none {
                state = .running(pending: .none, waiter: nil, offer: nil, task: task)
                return .demand(pending)
            }
            state = .running(pending: .none, waiter: waiter, offer: offer, task: task)
            return .suspended
        case .subscribing, .idle, .finished, .cancelled:
            return .stop
        }
    }

    /// Takes the pending demand without suspending; `nil` once cancelled or finished.
    mutating func takePendingDemand() -> Subscribers.Demand? {
        guard case .running(let pending, let waiter, let offer, let task) = state else { return nil }
        state = .running(pending: .none, waiter: waiter, offer: offer, task: task)
        return pending
    }

    /// `true` while the task waits with an offer that no request has taken yet.
    var isOffering: Bool {
        guard case .running(_, _, let offer, _) = state else { return false }
        return offer != nil
    }

    /// The task ends; returns `true` if its completion is to be delivered.
    mutating func finish() -> Bool {
        guard case .running = state else { return false }
        state = .finished
        return true
    }

    /// What ``cancel()`` does after unlocking.
    struct CancelAction {
        var task: Task<Void, Never>?
        var waiter: UnsafeContinuation<Subscribers.Demand?, Never>?
    }

    mutating func cancel() -> CancelAction? {
        switch state {
        case .subscribing, .idle:
            state = .cancelled
            return CancelAction()
        case .running(_, let waiter, _, let task):
            state = .cancelled
            return CancelAction(task: task, waiter: waiter)
        case .finished, .cancelled:
            return nil
        }
    }
}
