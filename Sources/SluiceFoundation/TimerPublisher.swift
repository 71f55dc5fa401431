import Foundation
import Sluice

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on `runLoop`, every `interval` seconds, once
    /// connected: nothing fires until ``TimerPublisher/connect()`` (or `autoconnect()`, which connects on the
    /// first subscriber and cancels the connection when the last one leaves). See ``TimerPublisher`` for demand
    /// and threading. `mode` `.common` keeps it firing while a UI tracks events, `.default` does not.
    ///
    /// `tolerance` is not used, as in Combine, whose `publish` drops it; for a tolerance, use
    /// `Timer.TimerPublisher(interval:tolerance:runLoop:mode:options:)`.
    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> Timer.TimerPublisher {
        TimerPublisher(interval: interval, tolerance: nil, runLoop: runLoop, mode: mode, options: options)
    }

    /// A connectable publisher of the dates at which a repeating `Timer` fires.
    ///
    /// Each ``connect()`` adds a new repeating `Timer` to ``runLoop`` in ``mode``; the connection's `cancel()`
    /// invalidates it and disconnects every subscriber attached then (with no completion: the publisher never
    /// completes). Demand: each firing is offered to every subscriber attached; one without outstanding demand
    /// loses that firing (it is never kept for later). Dates are delivered on the thread running ``runLoop``,
    /// only while it runs in ``mode``; on Linux no run loop runs unless a thread runs it (`RunLoop.main` included).
    public final class TimerPublisher: ConnectablePublisher {
        public typealias Output = Date
        public typealias Failure = Never

        /// The time between firings, in seconds.
        public final let interval: TimeInterval
        /// How late the timer may fire, or `nil` for none.
        public final let tolerance: TimeInterval?
        /// The run loop the timer is added to.
        public final let runLoop: RunLoop
        /// The run loop mode the timer runs in.
        public final let mode: RunLoop.Mode
        /// The scheduler options it was made with.
        public final let options: RunLoop.SchedulerOptions?

        private let fanOut = TimerFanOut()

        /// A publisher that fires every `interval` on `runLoop` in `mode`, once connected.
        public init(
            interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches `subscriber`: it receives the firings of every later connection, within its demand, until
        /// it cancels or the connection is cancelled.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            let fanOut = fanOut
            Publishers.Emitting<Date, Never> { emitter in
                let id = fanOut.attach(emitter)
                emitter.onCancel { fanOut.detach(id) }
            }.receive(subscriber: TimerSubscriber(downstream: subscriber))
        }

        /// Adds a repeating timer to ``runLoop`` in ``mode``, firing first one ``interval`` from now. The returned
        /// cancellable invalidates it and disconnects the subscribers attached (from any thread; a second call
        /// does nothing).
        public func connect() -> any Cancellable {
            let fanOut = fanOut
            let timer = RunLoopTimers.timer(firing: Date(timeIntervalSinceNow: interval), interval: interval) {
                fanOut.fire(Date())
            }
            timer.tolerance = Swift.max(tolerance ?? 0, 0)
            runLoop.add(timer, forMode: mode)
            return TimerConnection(timer: timer, fanOut: fanOut)
        }
    }
}

/// The subscribers attached to one `Timer.TimerPublisher`, as emitters, in the order they subscribed.
private final class TimerFanOut: Sendable {
    private struct State {
        var next = 0
        var emitters: [(id: Int, emitter: Publishers.Emitting<Date, Never>.Emitter)] = []
    }

    private let state = Locked(State())

    func attach(_ emitter: Publishers.Emitting<Date, Never>.Emitter) -> Int {
        state.withLock { state in
            state.next += 1
            state.emitters.append((state.next, emitter))
            return state.next
        }
    }

    func detach(_ id: Int) {
        let removed = state.withLock { state in
            state.emitters.firstIndex { $0.id == id }.map { state.emitters.remove(at: $0) }
        }
        withExtendedLifetime(removed) {}  // released here, after unlocking
    }

    func fire(_ date: Date) {
        for (_, emitter) in state.withLock({ $0.emitters }) { emitter.send(date) }
    }

    func detachAll() {
        let removed = state.withLock { state in
            defer { state.emitters.removeAll() }
            return state.emitters
        }
        withExtendedLifetime(removed) {}
    }
}

/// Hands the downstream a ``TimerSubscription`` for the emitter's subscription.
private struct TimerSubscriber<Downstream: Subscriber>: Subscriber
where Downstream.Input == Date, Downstream.Failure == Never {
    let downstream: Downstream
    var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

    func receive(subscription: any Subscription) {
        downstream.receive(subscription: TimerSubscription(subscription))
    }

    func receive(_ input: Date) -> Subscribers.Demand { downstream.receive(input) }
    func receive(completion: Subscribers.Completion<Never>) { downstream.receive(completion: completion) }
}

/// The emitter's subscription with no description or mirror of its own, as Combine's timer subscription has none.
private final class TimerSubscription: Subscription {
    let base: any Subscription
    init(_ base: any Subscription) { self.base = base }
    var combineIdentifier: CombineIdentifier { base.combineIdentifier }
    func request(_ demand: Subscribers.Demand) { base.request(demand) }
    func cancel() { base.cancel() }
}

/// One connection of a `Timer.TimerPublisher`: cancelling it invalidates its timer once.
private final class TimerConnection: Cancellable {
    private let timer: Locked<Timer?>
    private let fanOut: TimerFanOut

    init(timer: Timer, fanOut: TimerFanOut) {
        self.timer = Locked(timer)
        self.fanOut = fanOut
    }

    func cancel() {
        guard let timer = timer.withLock({ $0.take() }) else { return }
        fanOut.detachAll()
        RunLoopTimers.invalidate(timer)
    }
}
