// The operator-specific half of the scheduled operators: see TimedSubscription.swift.

/// One of the two actions a ``TimedSubscription`` hands its scheduler.
@usableFromInline
enum TimedAction {
    /// The action that delivers a signal: a hop, a throttled emission.
    case signal
    /// The action of the deadline (`debounce`'s due time).
    case timer
}

/// What a ``TimedLogic`` asks of the scheduler after an event; the subscription schedules it after unlocking.
@usableFromInline
struct TimedPlan<Time> {
    /// Run the signal action as soon as the scheduler can (`schedule(options:_:)`).
    @usableFromInline var hop = false
    /// Run the signal action at this time.
    @usableFromInline var signalAt: Time?
    /// Run the timer action at this time.
    @usableFromInline var timerAt: Time?

    @inlinable init(hop: Bool = false, signalAt: Time? = nil, timerAt: Time? = nil) {
        self.hop = hop
        self.signalAt = signalAt
        self.timerAt = timerAt
    }

    /// Nothing to schedule (most values in a burst: the timer is already set).
    @inlinable var isEmpty: Bool { !hop && signalAt == nil && timerAt == nil }
}

/// What a run of a scheduled action delivers, decided by the ``TimedLogic``.
@usableFromInline
struct TimedFiring<Output, Failure: Error, Time> {
    /// A value for the downstream (dropped if it has no demand).
    @usableFromInline var value: Output?
    /// The completion, after `value`.
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// More to schedule.
    @usableFromInline var plan = TimedPlan<Time>()

    @inlinable init() {}
}

/// The state machine of one scheduled operator, kept under its subscription's lock. Each event
/// gets the scheduler's time, read before locking; it answers with what to schedule or deliver.
/// The subscription gates the events (no upstream signal after the completion or a cancel, no
/// run after the subscription terminated).
@usableFromInline
protocol TimedLogic<Output, Failure, Time> {
    associatedtype Output
    associatedtype Failure: Error
    associatedtype Time: Strideable

    /// Where Combine's `throttle` and `debounce` part at their edges. `true` (throttle): the upstream is
    /// asked for `.unlimited` before the downstream has its subscription, `request(.none)` is ignored, and a
    /// cancel before the upstream's subscription cancels that subscription when it comes. `false` (debounce):
    /// the upstream is asked after the downstream has its subscription, `request(.none)` traps (rule 7), and
    /// a cancel before the upstream's subscription is ignored.
    static var throttlesEdges: Bool { get }

    /// Combine's name for the subscription (`description`).
    var name: String { get }

    /// A value from the upstream; `demand` is the downstream's outstanding demand.
    mutating func receive(_ value: Output, now: Time, demand: Subscribers.Demand) -> TimedPlan<Time>
    /// The upstream's completion.
    mutating func receive(completion: Subscribers.Completion<Failure>, now: Time) -> TimedPlan<Time>
    /// One of the subscription's actions runs.
    mutating func fire(_ action: TimedAction, now: Time) -> TimedFiring<Output, Failure, Time>
    /// The subscription is cancelled: drop what is held.
    mutating func reset()
}
