/// The state of one `collect(_:options:)` by time subscription (``CollectByTimeSubscription``),
/// under its lock.
///
/// Elements go into `group`, the open array. A tick (the repeating timer) closes it into `ready` if it is not
/// empty and there is demand left for it; by count, it is closed into `ready` as soon as it is full. Closed
/// arrays go to the downstream through a ``SerialDelivery`` from a *run*: the one `@Sendable` action
/// (`action`, from a `ScheduledEntry` made once) that the timer runs for ticks and that is scheduled once
/// more (`pendingRuns`) whenever something closed can be delivered outside a tick.
///
/// ```text
/// collecting ──upstream .finished──▶ flushing (the open array closed; arrays, then .finished,
///     │                                         as demand comes; timer cancelled)
///     ├──upstream failure──▶ flushing (everything collected dropped; the failure at the next run)
///     └──cancel──▶ terminated ◀── the completion handed to the downstream (action dropped)
/// ```
///
/// A run tells a tick from a scheduled run by `pendingRuns`: if one is pending, the run is
/// taken to be it. On a serial or virtual-time scheduler a run scheduled "now" precedes any
/// later tick; should a tick overtake one (a concurrent queue), the open array waits for the
/// pending run, which then closes it as the tick would have.
struct CollectByTimeState<Downstream: Subscriber, Element> where Downstream.Input == [Element] {
    typealias Failure = Downstream.Failure
    typealias Next = SerialDelivery<[Element], Failure>.Next

    /// Released on cancel and when the completion goes out.
    var downstream: Downstream?
    var upstream = SubscriptionSlot.awaiting
    var delivery = SerialDelivery<[Element], Failure>()
    var group: [Element] = []
    /// Closed arrays not yet handed to the delivery (they wait for a run, or for demand).
    var ready = FIFO<[Element]>()
    /// The run's action; nil once terminated, which ends its cycle through this subscription.
    var action: (@Sendable () -> Void)?
    var timer: (any Cancellable)?
    /// Runs scheduled and not yet run (ticks are not counted).
    var pendingRuns = 0
    /// `byTime` asked its upstream for `.unlimited` already.
    var askedUnlimited = false
    /// The upstream's completion, sent by a run once the arrays before it are out.
    var ending: Subscribers.Completion<Failure>?
    /// No upstream element is accepted any more (completion or cancel).
    var ended = false
    /// `byTimeOrCount`'s count; nil for `byTime`.
    let count: Int?

    init(downstream: Downstream, count: Int?) {
        self.downstream = downstream
        self.count = count
    }

    /// The upstream's subscription arrived: the downstream to give its own to, or nil (a
    /// second one, to cancel).
    mutating func attach(_ subscription: any Subscription, action: @escaping @Sendable () -> Void) -> Downstream? {
        guard upstream.attach(subscription), let downstream else { return nil }
        self.action = action
        return downstream
    }

    /// The action to start the timer with, unless it ended meanwhile.
    var timerAction: (@Sendable () -> Void)? { ended ? nil : action }

    /// The timer started; returns it if the subscription ended meanwhile (to cancel).
    mutating func started(_ timer: any Cancellable) -> (any Cancellable)? {
        guard !ended else { return timer }
        self.timer = timer
        return nil
    }

    /// An element arrived: the action to schedule, if it filled the array and a run can deliver it.
    mutating func receive(_ element: Element) -> (@Sendable () -> Void)? {
        guard !ended else { return nil }
        group.append(element)
        guard let count, group.count >= count else { return nil }
        ready.append(group)
        group = []
        return runIfDeliverable()
    }

    /// The downstream asked for `demand` arrays: the upstream demand to ask for, and the
    /// action to schedule if something closed can now go out.
    mutating func request(
        _ demand: Subscribers.Demand
    ) -> ((any Subscription)?, Subscribers.Demand, (@Sendable () -> Void)?) {
        guard downstream != nil else { return (nil, .none, nil) }
        delivery.demand += demand
        return (upstream.current, upstreamDemand(for: demand), runIfDeliverable())
    }

    /// The upstream demand for `demand` more arrays.
    mutating func upstreamDemand(for demand: Subscribers.Demand) -> Subscribers.Demand {
        guard !ended, demand > .none else { return .none }
        guard let count else {
            if askedUnlimited { return .none }
            askedUnlimited = true
            return .unlimited
        }
        if count < 0 { Violation.negativeGroupCount(count) }
        return count == 0 ? .none : demand * count
    }

    /// Schedules one run (counted) if something closed could be delivered and no run or
    /// deliverer would pick it up anyway.
    mutating func runIfDeliverable() -> (@Sendable () -> Void)? {
        guard let action, pendingRuns == 0, !delivery.delivering else { return nil }
        let deliverable = ready.isEmpty ? ending != nil : delivery.demand > .none
        guard deliverable else { return nil }
        pendingRuns += 1
        return action
    }

    /// A run (or a tick): what this caller delivers, to whom.
    mutating func run() -> (Next, Downstream?) {
        let isTick = pendingRuns == 0
        if !isTick { pendingRuns -= 1 }
        guard let downstream else { return (.idle, nil) }
        if isTick, !group.isEmpty, delivery.demand > ready.count {
            ready.append(group)
            group = []
        }
        let next = pull()
        if case .completion = next { terminate() }
        return (next, downstream)
    }

    /// The deliverer is back and the downstream asked for `more` arrays: the upstream demand
    /// to ask for, and what to deliver next.
    mutating func delivered(_ more: Subscribers.Demand) -> (((any Subscription)?, Subscribers.Demand), Next) {
        delivery.demand += more
        let upstreamDemand = (upstream.current, upstreamDemand(for: more))
        _ = pull()
        let next = delivery.next(adding: .none)
        if case .completion = next { terminate() }
        return (upstreamDemand, next)
    }

    /// Hands closed arrays to the delivery while it has demand, then the ending once none is
    /// left. Returns what this caller delivers if it became the deliverer.
    mutating func pull() -> Next {
        var first = Next.idle
        while delivery.demand > .none, let array = ready.popFirst() {
            if case .deliver = delivery.admit(array) { first = .value(array) }
        }
        if ready.isEmpty, let completion = ending {
            ending = nil
            if delivery.finish(completion) { first = .completion(completion) }
        }
        return first
    }

    /// The upstream completed: the timer to cancel, and the action to schedule (the
    /// completion is sent by a run).
    mutating func upstreamCompleted(
        _ completion: Subscribers.Completion<Failure>
    ) -> ((any Cancellable)?, (@Sendable () -> Void)?) {
        guard !ended else { return (nil, nil) }
        ended = true
        _ = upstream.end()
        if case .finished = completion {
            if !group.isEmpty { ready.append(group) }
        } else {
            // Closed arrays the downstream already has demand for still go out first.
            var kept = FIFO<[Element]>()
            var demand = delivery.demand
            while demand > .none, let array = ready.popFirst() {
                kept.append(array)
                demand -= 1
            }
            ready = kept
        }
        group = []
        ending = completion
        defer { timer = nil }
        return (timer, runIfDeliverable())
    }

    /// Cancelled: what to cancel and release after unlocking.
    mutating func cancel() -> Ended {
        let ended = Ended(upstream: upstream.end()?.upstream, timer: timer, downstream: downstream, action: action)
        terminate()
        delivery.reset()
        return ended
    }

    struct Ended {
        let upstream: (any Subscription)?
        let timer: (any Cancellable)?
        let downstream: Downstream?
        let action: (@Sendable () -> Void)?
    }

    /// Nothing more goes out: everything is dropped (the action with it, ending its cycle).
    mutating func terminate() {
        ended = true
        _ = upstream.end()
        downstream = nil
        action = nil
        timer = nil
        group = []
        ready = FIFO()
        ending = nil
    }
}
