/// The subscription of `receive(on:)`: the upstream's subscriber, which queues each signal,
/// and the downstream's subscription, whose requests and cancel go straight upstream. One
/// drain at a time, run by the scheduler, delivers what is queued (see ``ReceiveOnState``).
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

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        state = Locked(ReceiveOnState(downstream: downstream))
        self.scheduler = scheduler
        self.options = options
        let entry = ScheduledEntry { self.drain() }
        state.withLock { $0.drain = entry.action }
    }

    /// Signals delivered per scheduled run before the drain yields the scheduler to others.
    @inlinable static var budget: Int { 1024 }

    @inlinable
    func enqueue(_ signal: ReceiveOnState<Downstream>.Signal) {
        if let drain = state.withLock({ $0.enqueue(signal) }) { scheduler.schedule(options: options, drain) }
    }

    /// Run by the scheduler: delivers the queued signals, up to the budget.
    @inlinable
    func drain() {
        var budget = Self.budget
        var reschedule: (@Sendable () -> Void)?
        while let (signal, downstream) = state.withLock({ $0.next(budget: &budget, reschedule: &reschedule) }) {
            switch signal {
            case .subscription:
                downstream.receive(subscription: self)
            case .value(let value):
                let more = downstream.receive(value)
                if more > .none, let upstream = state.withLock({ $0.upstream.current }) { upstream.request(more) }
            case .completion(let completion):
                downstream.receive(completion: completion)
            }
        }
        if let reschedule { scheduler.schedule(options: options, reschedule) }
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard state.withLock({ $0.downstream != nil && $0.upstream.attach(subscription) }) else {
            return subscription.cancel()
        }
        enqueue(.subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        enqueue(.value(input))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        // The upstream is done: nothing to cancel any more, but the completion still waits its turn.
        let drain = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.upstream.end() != nil else { return nil }
            return state.enqueue(.completion(completion))
        }
        if let drain { scheduler.schedule(options: options, drain) }
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

    @usableFromInline var description: String { "ReceiveOn" }
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
