import Sluice

/// A publisher for tests whose subscriptions the test drives by hand: each subscriber gets a
/// ``ControllableSubscription`` that records every `request` and `cancel` and lets the test send values and a
/// completion at will, within demand or, to test a subscriber's defences, beyond it.
///
/// <!-- snippet: ControllablePublisherDriven -->
/// ```swift
/// let publisher = ControllablePublisher<Int, Never>()
/// let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
/// publisher.subscribe(recorder)
/// let subscription = publisher.subscriptions[0]
/// #expect(subscription.requests == [.max(1)])
/// _ = subscription.send(1)
/// subscription.send(completion: .finished)
/// ```
public final class ControllablePublisher<Output, Failure: Error>: Publisher {
    private let created = Locked<[ControllableSubscription<Output, Failure>]>([])
    /// So that ``firstSubscription()`` can wait without polling.
    private let subscribed = EventLog<Int>()

    /// Creates a publisher with no subscribers yet.
    public init() {}

    /// Lets every subscription drop its subscriber; later sends reach nobody. A subscription keeps its subscriber
    /// after a cancel (so a test can send past it), and a recorder keeps its subscription, so without this the
    /// pair keep each other alive (which the leak checker reports): call it in a `defer` after making the publisher.
    public func detachAll() {
        for subscription in created.withLock({ $0 }) { subscription.detach() }
    }

    /// The subscriptions made so far, in order of subscription.
    public var subscriptions: [ControllableSubscription<Output, Failure>] { created.withLock { $0 } }

    /// Gives the subscriber a new ``ControllableSubscription``.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = ControllableSubscription<Output, Failure>(AnySubscriber(subscriber))
        let count = created.withLock { $0.append(subscription); return $0.count }
        subscribed.append(count)
        subscriber.receive(subscription: subscription)
    }

    /// Suspends until a subscriber has subscribed, then returns the first subscription; nil if the awaiting task
    /// is cancelled first, so that a test's time limit ends the wait.
    public func firstSubscription() async -> ControllableSubscription<Output, Failure>? {
        await subscribed.wait { !$0.isEmpty }
        return subscriptions.first
    }
}

/// A subscription driven by the test; see ``ControllablePublisher``.
public final class ControllableSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
    /// A call the subscriber made on this subscription.
    public enum Call: Equatable, Sendable {
        /// `request(_:)` with its demand.
        case request(Subscribers.Demand)
        /// `cancel()`.
        case cancel
    }

    private let downstream: Locked<AnySubscriber<Output, Failure>?>
    private let calls = EventLog<Call>()

    init(_ downstream: AnySubscriber<Output, Failure>) {
        self.downstream = Locked(downstream)
    }

    /// Drops the subscriber; later sends reach nobody (see ``ControllablePublisher/detachAll()``).
    public func detach() {
        let subscriber = downstream.withLock { state -> AnySubscriber<Output, Failure>? in
            defer { state = nil }
            return state
        }
        _ = subscriber   // released here, after the lock
    }

    /// Every `request` and `cancel`, in order.
    public var history: [Call] { calls.events }

    /// The demands requested, in order.
    public var requests: [Subscribers.Demand] {
        history.compactMap { if case .request(let demand) = $0 { demand } else { nil } }
    }

    /// The sum of the demand requested so far (not counting demand returned from values).
    public var requestedDemand: Subscribers.Demand { requests.reduce(.none, +) }

    /// How many times `cancel()` was called.
    public var cancelCount: Int { history.count { $0 == .cancel } }

    /// Records the request.
    public func request(_ demand: Subscribers.Demand) { calls.append(.request(demand)) }

    /// Records the cancellation.
    public func cancel() { calls.append(.cancel) }

    /// Delivers a value to the subscriber, whatever the demand, and returns the subscriber's answer.
    @discardableResult
    public func send(_ value: Output) -> Subscribers.Demand {
        downstream.withLock { $0 }?.receive(value) ?? .none
    }

    /// Delivers a completion to the subscriber.
    public func send(completion: Subscribers.Completion<Failure>) {
        downstream.withLock { $0 }?.receive(completion: completion)
    }

    /// Suspends until `predicate` holds for the calls recorded so far, or until the awaiting task is cancelled.
    /// The predicate runs outside any lock and may read this subscription.
    public func waitForCalls(until predicate: @escaping @Sendable ([Call]) -> Bool) async {
        await calls.wait(until: predicate)
    }

    /// `"ControllableSubscription"`.
    public var description: String { "ControllableSubscription" }
}
