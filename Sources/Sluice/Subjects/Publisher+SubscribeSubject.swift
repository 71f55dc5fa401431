extension Publisher {
    /// Attaches the subject as a subscriber: the subject re-publishes this publisher's
    /// values and completion.
    ///
    /// The subject receives the subscription through ``Subject/send(subscription:)``: it
    /// requests `.unlimited` from this publisher once one of its own subscribers has asked for
    /// a value, and nothing before, as Combine's subjects do. Cancel the returned
    /// ``AnyCancellable`` to detach. The subject is held weakly: once it is deinitialized,
    /// values go nowhere.
    ///
    /// <!-- snippet: PublisherSubscribeSubject -->
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// var received: [Int] = []
    /// var cancellables = Set<AnyCancellable>()
    /// [1, 2, 3].publisher.subscribe(subject).store(in: &cancellables)   // no demand: nothing yet
    /// subject.sink { received.append($0) }.store(in: &cancellables)     // received == [1, 2, 3]
    /// ```
    @inlinable
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
    where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}

/// The subscriber behind `subscribe(_:)` for a subject; it is also the subscription the
/// subject receives, forwarding `request` and `cancel` upstream.
///
/// ```text
/// awaiting ──receive(subscription:)──▶ subscribed ──completion / cancel──▶ terminated
/// ```
///
/// Inlinable, so that a client's `publisher.subscribe(subject)` (and so `multicast`, `share`)
/// delivers each value to its subject through specialised code.
@usableFromInline
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Output
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    struct State {
        /// Weak: the subject keeps its upstream subscriptions (this object) alive.
        @usableFromInline weak var subject: Downstream?
        @usableFromInline var upstream = SubscriptionSlot.awaiting

        @inlinable init(subject: Downstream) { self.subject = subject }
    }

    @usableFromInline let state: Locked<State>

    @inlinable
    init(_ subject: Downstream) {
        state = Locked(State(subject: subject))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let subject = state.withLock { state -> Downstream?? in
            guard state.upstream.attach(subscription) else { return nil }
            return .some(state.subject)
        }
        guard let subject else {
            subscription.cancel()
            return
        }
        subject?.send(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let subject = state.withLock { $0.upstream.current == nil ? nil : $0.subject }
        subject?.send(input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let subject = state.withLock { state -> Downstream? in
            guard state.upstream.end() != nil else { return nil }
            defer { state.subject = nil }
            return state.subject
        }
        subject?.send(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        state.withLock { $0.upstream.current }?.request(demand)
    }

    @inlinable
    func cancel() {
        let ended = state.withLock { state -> SubscriptionSlot.Ended? in
            state.subject = nil
            return state.upstream.end()
        }
        ended?.upstream?.cancel()
    }

    /// `"Subject"`, as Combine prints it.
    @usableFromInline var description: String { "Subject" }

    /// The subject and the upstream subscription.
    @usableFromInline var customMirror: Mirror {
        let (subject, upstream) = state.withLock { ($0.subject as Any, $0.upstream.current as Any) }
        return Mirror(self, children: ["downstreamSubject": subject, "upstreamSubscription": upstream])
    }

    /// The same as ``description``.
    @usableFromInline var playgroundDescription: Any { description }
}
