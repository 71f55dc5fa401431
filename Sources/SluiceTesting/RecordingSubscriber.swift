import Sluice
import Synchronization

/// A subscriber for tests: it records every signal in order, lets the test control the demand at any moment,
/// checks the publisher's side of the contract, and can be awaited without sleeping. Contract breaches by the
/// publisher are recorded in ``violations`` rather than trapping, so a test can assert there were none.
///
/// A signal after ``cancel()`` returned is a violation when the cancel was made inside a `receive(_:)` (from
/// ``onValue(_:)``) or the signal arrives on the cancelling thread. From another thread, one emission already
/// under way may still arrive, as in Combine: one value, then possibly the completion on the same thread; any
/// more is a violation.
///
/// <!-- snippet: RecordingSubscriberDemand -->
/// ```swift
/// let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
/// (1...5).publisher.subscribe(recorder)
/// #expect(recorder.values == [1, 2])
/// recorder.request(.max(3))
/// #expect(recorder.values == [1, 2, 3, 4, 5])
/// #expect(recorder.completion == .finished)
/// #expect(recorder.violations.isEmpty)
/// ```
public final class RecordingSubscriber<Input, Failure: Error>: Subscriber, Cancellable,
    CustomStringConvertible
{
    /// One signal as the subscriber received it.
    public enum Event {
        /// The subscription arrived.
        case subscription
        /// A value arrived.
        case value(Input)
        /// The completion arrived.
        case completion(Subscribers.Completion<Failure>)
    }

    fileprivate struct State {
        var subscription: UpstreamSubscription?
        var subscriptionCount = 0
        var outstanding = Subscribers.Demand.none
        var completed = false
        var violations: [String] = []
        var demandPerValue: Subscribers.Demand
        var onValue: (@Sendable (Input) -> Subscribers.Demand)?
        /// The thread inside `receive(_:)`, while one runs.
        var valueThread: UInt?
        /// Set when a cancel made through the recorder has returned.
        var cancelled: Cancelled?
        var valuesAfterCancel = 0
        /// The thread of the one emission in flight when the cancel came.
        var inFlightThread: UInt?
        var valueCount = 0
    }

    /// How a cancel made through the recorder was made, to judge the values after it.
    fileprivate struct Cancelled {
        var thread: UInt
        var insideValue: Bool
    }

    private let initialDemand: Subscribers.Demand
    private let state: Locked<State>
    private let log = EventLog<Event>()
    private let signalsInFlight = Atomic<Int>(0)

    /// Creates a recorder that requests `initialDemand` when subscribed (nothing for `.none`) and returns
    /// `demandPerValue` from each `receive(_:)`.
    public init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        state = Locked(State(demandPerValue: demandPerValue))
    }

    // MARK: Reading what was recorded

    /// Every signal so far, in order.
    public var events: [Event] { log.events }

    /// The values received so far, in order.
    public var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    /// The number of values received so far (``values``'s count, without copying them).
    public var valueCount: Int { state.withLock { $0.valueCount } }

    /// The completion, once received.
    public var completion: Subscribers.Completion<Failure>? {
        for case .completion(let completion) in events { return completion }
        return nil
    }

    /// Breaches of the subscriber contract seen so far; empty for a well-behaved publisher.
    public var violations: [String] { state.withLock { $0.violations } }

    /// The demand requested and not yet used up by values.
    ///
    /// <!-- snippet: RecordingSubscriberOutstandingDemand -->
    /// ```swift
    /// let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    /// Just(1).subscribe(recorder)
    /// #expect(recorder.outstandingDemand == .max(1))
    /// ```
    public var outstandingDemand: Subscribers.Demand { state.withLock { $0.outstanding } }

    /// The subscription, once received (kept after a cancel, so a second cancel reaches it).
    public var subscription: (any Subscription)? { state.withLock { $0.subscription?.base } }

    // MARK: Controlling demand

    /// Requests more values through the subscription; does nothing before it arrives.
    public func request(_ demand: Subscribers.Demand) {
        let subscription = state.withLock { state -> UpstreamSubscription? in
            guard let subscription = state.subscription else { return nil }
            state.outstanding += demand
            return subscription
        }
        subscription?.base.request(demand)
    }

    /// Cancels the subscription. Calling it again cancels it again (to test idempotence).
    public func cancel() {
        guard let subscription = state.withLock({ $0.subscription }) else { return }
        subscription.base.cancel()
        let thread = currentThreadIdentity()
        let onValue = state.withLock { state in
            let insideValue = state.valueThread == thread
            if state.cancelled == nil {
                state.cancelled = Cancelled(thread: thread, insideValue: insideValue)
            } else if insideValue {
                state.cancelled?.insideValue = true
            }
            return state.onValue.take()
        }
        withExtendedLifetime(onValue) {}  // released here, after unlocking
    }

    /// Sets the demand each later `receive(_:)` returns.
    public var demandPerValue: Subscribers.Demand {
        get { state.withLock { $0.demandPerValue } }
        set { state.withLock { $0.demandPerValue = newValue } }
    }

    /// Runs `body` inside each later `receive(_:)`, before recording the value; its result replaces
    /// ``demandPerValue``. Use it to request or cancel re-entrantly. The recorder lets go of `body` when it
    /// cancels or completes, so a `body` that captures the recorder keeps it alive only until then.
    ///
    /// <!-- snippet: RecordingSubscriberCancelInsideValue -->
    /// ```swift
    /// recorder.onValue { _ in recorder.cancel(); return .none }
    /// ```
    public func onValue(_ body: @escaping @Sendable (Input) -> Subscribers.Demand) {
        state.withLock { $0.onValue = body }
    }

    // MARK: Awaiting

    /// Suspends until `predicate` holds for the events recorded so far, or until the awaiting task is cancelled
    /// (so a `.timeLimit` ends a wait that would hang). The predicate runs outside the recorder's locks, possibly
    /// more than once and on the thread that delivers a signal; it may read the recorder.
    public func wait(until predicate: @escaping @Sendable ([Event]) -> Bool) async where Input: Sendable {
        await log.wait(until: predicate)
    }

    /// Suspends until at least `count` values have arrived, or until the awaiting task is cancelled.
    public func waitForValues(count: Int) async where Input: Sendable {
        await log.wait { events in
            events.reduce(0) { if case .value = $1 { $0 + 1 } else { $0 } } >= count
        }
    }

    /// Suspends until the completion arrives and returns it; `nil` if the awaiting task is cancelled first.
    @discardableResult
    public func waitForCompletion() async -> Subscribers.Completion<Failure>? where Input: Sendable {
        await log.wait { events in
            events.contains { if case .completion = $0 { true } else { false } }
        }
        return completion
    }

    // MARK: Subscriber

    /// Records the subscription and requests the initial demand.
    public func receive(subscription: any Subscription) {
        enter()
        let first = state.withLock { state -> Bool in
            state.subscriptionCount += 1
            guard state.subscriptionCount == 1 else {
                state.violations.append("received a second subscription (rule 1)")
                return false
            }
            state.subscription = UpstreamSubscription(subscription)
            state.outstanding = initialDemand
            return true
        }
        guard first else { leave(); return }
        log.append(.subscription)
        // Over before the request: values a publisher delivers inside `request(_:)` do not overlap this signal.
        leave()
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    /// Records the value and returns the configured demand.
    public func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        defer { leave() }
        let thread = currentThreadIdentity()
        let onValue = state.withLock { state -> (@Sendable (Input) -> Subscribers.Demand)? in
            state.valueThread = thread
            state.valueCount += 1
            state.checkValueNotCancelled(on: thread, "received a value after its cancel returned (rule 4)")
            if state.subscription == nil && state.subscriptionCount == 0 {
                state.violations.append("received a value before its subscription (rule 1)")
            }
            if state.completed { state.violations.append("received a value after completion (rule 4)") }
            if state.outstanding == .none {
                state.violations.append("received a value beyond demand (rule 2)")
            } else {
                state.outstanding -= 1
            }
            return state.onValue
        }
        log.append(.value(input))
        let demand = onValue?(input) ?? state.withLock { $0.demandPerValue }
        state.withLock { state in
            state.outstanding += demand
            state.valueThread = nil
        }
        return demand
    }

    /// Records the completion.
    public func receive(completion: Subscribers.Completion<Failure>) {
        enter()
        defer { leave() }
        let thread = currentThreadIdentity()
        let onValue = state.withLock { state in
            state.checkCompletionNotCancelled(on: thread, "received a completion after its cancel returned (rule 4)")
            if state.subscriptionCount == 0 {
                state.violations.append("received a completion before its subscription (rule 1)")
            }
            if state.completed { state.violations.append("received a second completion (rule 4)") }
            state.completed = true
            return state.onValue.take()
        }
        withExtendedLifetime(onValue) {}  // released here, after unlocking
        log.append(.completion(completion))
    }

    /// `"RecordingSubscriber"`.
    public var description: String { "RecordingSubscriber" }

    private func enter() {
        if signalsInFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            state.withLock { $0.violations.append("received overlapping signals (rule 3)") }
        }
    }

    private func leave() {
        signalsInFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }
}

extension RecordingSubscriber.State {
    /// Records `violation` unless the value can be the one emission already under way on another thread.
    fileprivate mutating func checkValueNotCancelled(on thread: UInt, _ violation: String) {
        guard let cancelled else { return }
        valuesAfterCancel += 1
        if cancelled.insideValue || cancelled.thread == thread || valuesAfterCancel > 1
            || (inFlightThread.map { $0 != thread } ?? false)
        {
            violations.append(violation)
        }
        inFlightThread = thread
    }

    /// The same for a completion: it may end the emission in flight, on its thread.
    fileprivate mutating func checkCompletionNotCancelled(on thread: UInt, _ violation: String) {
        guard let cancelled else { return }
        if cancelled.insideValue || cancelled.thread == thread || (inFlightThread.map { $0 != thread } ?? false) {
            violations.append(violation)
        }
        inFlightThread = thread
    }
}

extension RecordingSubscriber: Sendable where Input: Sendable {}
extension RecordingSubscriber.State: Sendable where Input: Sendable {}

extension RecordingSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}
extension RecordingSubscriber.Event: Sendable where Input: Sendable {}
