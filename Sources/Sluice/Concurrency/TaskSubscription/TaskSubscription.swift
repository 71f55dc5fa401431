import Synchronization

/// The subscription of every publisher whose values come from one task: the task starts at the first demand
/// (after `receive(subscription:)` has returned), takes demand in batches through ``nextDemand(isolation:)``,
/// suspends while there is none, and is cancelled by ``cancel()`` (states: ``TaskSubscriptionState``). A
/// task that suspends with a value ready can ``offer(_:isolation:)`` it: the request that brings demand then
/// delivers it on its own thread before resuming the task (one wake-up per value, not two). The subscriber
/// is reached through a ``TaskSubscriber``; cancelling drops the start closure, cancels the task and
/// releases the subscriber at once, even if the task runs on (user code may ignore cancellation).
@usableFromInline
final class TaskSubscription: Subscription, Sendable, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    typealias Starter = @Sendable (TaskSubscription) -> Task<Void, Never>

    private struct Inner: Sendable {
        var machine = TaskSubscriptionState()
        var starter: Starter?
    }

    @usableFromInline
    let combineIdentifier = CombineIdentifier()
    private let inner: Locked<Inner>
    @usableFromInline
    let cancelledFlag = Atomic<Bool>(false)
    @usableFromInline
    let description: String
    /// Released on cancel.
    private let subscriber: any TaskSubscriberReleasing

    @usableFromInline
    init(description: String, subscriber: any TaskSubscriberReleasing, starter: @escaping Starter) {
        self.description = description
        self.subscriber = subscriber
        inner = Locked(Inner(starter: starter))
    }

    /// The task-driven publishers' `receive(subscriber:)`: gives `subscriber` a subscription signalling
    /// through `signalled` whose `starter` begins the task at the first demand (at once if it came during
    /// `receive(subscription:)`).
    @inlinable
    static func subscribe<S: Subscriber>(
        _ subscriber: S, signalling signalled: TaskSubscriber<S>, description: String, starter: @escaping Starter
    ) {
        let subscription = TaskSubscription(description: description, subscriber: signalled, starter: starter)
        subscriber.receive(subscription: subscription)
        subscription.subscriptionDelivered()
    }

    /// A starter that runs `operation` in a new task of priority `priority`.
    @inlinable
    static func starter(priority: TaskPriority?, running operation: UncheckedSendableOperation) -> Starter {
        { subscription in Task(priority: priority) { await operation.run(subscription) } }
    }

    /// `true` once cancelled; read by the task before each value, without a lock.
    @inlinable
    var isCancelled: Bool { cancelledFlag.load(ordering: .acquiring) }

    /// Call after `receive(subscription:)` returned: starts the task if demand came meanwhile.
    @usableFromInline
    func subscriptionDelivered() {
        let starter = inner.withLock { inner -> Starter? in
            guard inner.machine.subscriptionDelivered() else { return nil }
            defer { inner.starter = nil }
            return inner.starter
        }
        if let starter { start(starter) }
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let (action, starter) = inner.withLock { inner -> (TaskSubscriptionState.RequestAction, Starter?) in
            let action = inner.machine.request(demand)
            guard case .startTask = action else { return (action, nil) }
            defer { inner.starter = nil }
            return (action, inner.starter)
        }
        switch action {
        case .none: break
        case .startTask: if let starter { start(starter) }
        case .resume(let waiter, let demand): waiter.resume(returning: demand)
        case .deliverOffer(let offer, let waiter, let demand): deliver(offer, to: waiter, spending: demand)
        }
    }

    /// Delivers the suspended task's offered value, then resumes the task with the demand left: what remains
    /// of `demand`, what the subscriber returned, and what was requested during the delivery (re-entrantly or
    /// from other threads). The task stays suspended until then, so this is the only signal in progress.
    private func deliver(
        _ offer: any TaskSubscriptionOffer, to waiter: UnsafeContinuation<Subscribers.Demand?, Never>,
        spending demand: Subscribers.Demand
    ) {
        guard let returned = offer.deliver() else {
            waiter.resume(returning: nil)  // released by a cancel: not delivered
            return
        }
        let meanwhile = inner.withLock { $0.machine.takePendingDemand() } ?? .none
        waiter.resume(returning: demand - 1 + returned + meanwhile)
    }

    private func start(_ starter: Starter) {
        let task = starter(self)
        inner.withLock { $0.machine.attach(task) }?.cancel()
    }

    @usableFromInline
    func cancel() {
        cancelledFlag.store(true, ordering: .releasing)
        let (action, starter) = inner.withLock { inner -> (TaskSubscriptionState.CancelAction?, Starter?) in
            defer { inner.starter = nil }
            return (inner.machine.cancel(), inner.starter)
        }
        withExtendedLifetime(starter) {}  // released after unlocking
        subscriber.release()
        guard let action else { return }
        action.task?.cancel()
        action.waiter?.resume(returning: nil)
    }

    /// The demand requested since the last call; suspends while there is none. `nil` once cancelled: stop.
    @usableFromInline
    func nextDemand(isolation: isolated (any Actor)? = #isolation) async -> Subscribers.Demand? {
        guard let pending = takePendingDemand() else { return nil }
        if pending > .none { return pending }
        return await withUnsafeContinuation(isolation: isolation) { continuation in
            switch inner.withLock({ $0.machine.takeDemand(continuation) }) {
            case .demand(let demand): continuation.resume(returning: demand)
            case .suspended: break
            case .stop: continuation.resume(returning: nil)
            }
        }
    }

    /// The demand requested since the last call, or `.none`, without suspending; `nil` once cancelled or finished.
    @usableFromInline
    func takePendingDemand() -> Subscribers.Demand? {
        inner.withLock { $0.machine.takePendingDemand() }
    }

    /// Suspends until there is demand for `offer`'s value and returns once it was delivered (by the request
    /// that brought the demand, on its thread, or here if demand came first): the demand left, or `nil` if
    /// it was not delivered (cancelled). Call when ``takePendingDemand()`` gave `.none`.
    @usableFromInline
    func offer(_ offer: any TaskSubscriptionOffer, isolation: isolated (any Actor)? = #isolation) async
        -> Subscribers.Demand?
    {
        await withUnsafeContinuation(isolation: isolation) { continuation in
            switch inner.withLock({ $0.machine.takeDemand(continuation, offering: offer) }) {
            case .demand(let demand):  // requested since the caller looked: deliver here, on the task
                continuation.resume(returning: offer.deliver().map { demand - 1 + $0 })
            case .suspended: break
            case .stop: continuation.resume(returning: nil)
            }
        }
    }

    /// `true` while the task waits with an offered value (for tests).
    var isOffering: Bool { inner.withLock { $0.machine.isOffering } }

    /// The task ends; returns `true` if the caller is to deliver its completion. `false` once a cancel has
    /// begun, even before it reached the lock: the task may have ended because it saw the cancel (a `send`
    /// refused, a `CancellationError` thrown), and that ending must not be delivered (rule 4).
    @usableFromInline
    func finish() -> Bool {
        if isCancelled { return false }
        return inner.withLock { $0.machine.finish() }
    }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline
    var playgroundDescription: Any { description }
}

/// A value a ``TaskSubscription``'s task offers while it waits for demand
/// (``TaskSubscription/offer(_:isolation:)``): whoever brings the demand delivers it.
@usableFromInline
protocol TaskSubscriptionOffer: AnyObject, Sendable {
    /// Delivers the offered value to the subscriber; the demand it returned, or `nil` if the
    /// subscriber was already released (nothing delivered). Called once per offer.
    func deliver() -> Subscribers.Demand?
}

