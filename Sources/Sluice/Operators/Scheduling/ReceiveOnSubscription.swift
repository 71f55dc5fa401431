/// The subscription of `receive(on:)`: the upstream's subscriber, which queues each value and the completion
/// and schedules one action for it, and the downstream's subscription, whose requests and cancel go straight
/// upstream. The subscription itself reaches the downstream at once, on the upstream's thread, as in Combine;
/// through an actor-backed scheduler (a hop to an actor) it is queued like the rest, so that it too arrives
/// on the actor. See ``ReceiveOnState`` for how the actions keep the signals in order and serial.
@usableFromInline
final class ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<ReceiveOnState<Downstream>>
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?
    /// The scheduler runs its actions on an actor: the subscription is scheduled too.
    @usableFromInline let queuesSubscription: Bool
    /// The hop an operator made on an actor puts in front of itself, which the user did not
    /// write: it describes itself as the upstream's subscription (what `print` and
    /// `handleEvents` show), not as `receive(on:)`.
    @usableFromInline let isImplicitHop: Bool

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?, isImplicitHop: Bool = false) {
        state = Locked(ReceiveOnState(downstream: downstream, coalesces: scheduler is any CoalescingScheduler))
        self.scheduler = scheduler
        self.options = options
        self.isImplicitHop = isImplicitHop
        queuesSubscription = (scheduler as? any ActorBackedScheduler)?.actor != nil
        let entry = ScheduledEntry { self.takeTurn() }
        state.withLock { $0.action = entry.action }
    }

    /// Run by the scheduler: delivers the oldest queued signal (and, on a coalescing scheduler, those behind
    /// it), unless another thread is delivering (then that thread delivers it).
    @inlinable
    func takeTurn() {
        guard let (signal, downstream) = state.withLock({ $0.actionRan() }) else { return }
        deliver(signal, to: downstream)
    }

    /// Delivers `signal`, then what is due after it (see ``ScheduledTurns``).
    @inlinable
    func deliver(_ signal: ReceiveOnState<Downstream>.Signal, to downstream: Downstream) {
        var next = ReceiveOnState<Downstream>.Turn.deliver(signal, downstream)
        while case .deliver(let signal, let downstream) = next {
            switch signal {
            case .subscription:
                downstream.receive(subscription: self)
            case .value(let value):
                let more = downstream.receive(value)
                if more > .none, let upstream = state.withLock({ $0.upstream.current }) { upstream.request(more) }
            case .completion(let completion):
                downstream.receive(completion: completion)
            }
            next = state.withLock { $0.delivered() }
        }
        if case .reschedule(let action) = next { scheduler.schedule(options: options, action) }
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.subscribed(subscription, queued: queuesSubscription) }) {
        case .deliverNow(let downstream):
            downstream.receive(subscription: self)
            switch state.withLock({ $0.delivered() }) {
            case .deliver(let signal, let downstream): deliver(signal, to: downstream)
            case .reschedule(let action): scheduler.schedule(options: options, action)
            case .done: break
            }
        case .schedule(let action):
            scheduler.schedule(options: options, action)
        case .cancel:
            subscription.cancel()
        case .ignore:
            break
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        if let action = state.withLock({ $0.enqueue(.value(input)) }) { scheduler.schedule(options: options, action) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        if let action = state.withLock({ $0.completed(completion) }) { scheduler.schedule(options: options, action) }
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.upstream.current }?.request(demand)
    }

    @inlinable
    func cancel() {
        state.withLock { $0.end() }?.cancel()
    }

    /// The hops a value passes from its source to this subscription's downstream, this one
    /// included (counted through upstream subscriptions that are hops too).
    package var hopsInChain: Int {
        1 + ((state.withLock { $0.upstream.current } as? any SignalHop)?.hopsInChain ?? 0)
    }

    @usableFromInline var description: String {
        guard isImplicitHop, let upstream = state.withLock({ $0.upstream.current }) else { return "ReceiveOn" }
        return String(describing: upstream)
    }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}

extension ReceiveOnSubscription: SignalHop {}

/// A subscription that moves signals to another thread or actor (`receive(on:)`, and the hop
/// of an operator made on an actor): lets tests see how many hops a chain makes.
package protocol SignalHop {
    /// This hop and the hops upstream of it whose subscriptions it can see.
    var hopsInChain: Int { get }
}
