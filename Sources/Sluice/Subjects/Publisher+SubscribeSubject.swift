import Synchronization

extension Publisher {
    /// Attaches the subject as a subscriber: the subject re-publishes this publisher's values and completion.
    ///
    /// The subject receives the subscription through ``Subject/send(subscription:)`` and requests
    /// `.unlimited` as Combine's subjects do: a ``PassthroughSubject`` once one of its own subscribers has
    /// asked for a value, a ``CurrentValueSubject`` at once. Cancel the returned ``AnyCancellable`` to
    /// detach. The subject is held weakly, as Combine's: once it is deinitialized, values go nowhere.
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
        subscribe(subject, strongly: false)
    }

    @inlinable
    func subscribe<S: Subject>(_ subject: S, strongly: Bool) -> AnyCancellable
    where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject, strongly: strongly)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}

/// The subscriber behind `subscribe(_:)` for a subject, and the subscription the subject receives.
///
/// ```text
/// awaiting ──receive(subscription:)──▶ subscribed ──completion / cancel──▶ terminated
/// ```
@usableFromInline
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Output
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    struct State {
        @usableFromInline var hold: SubjectHold<Downstream>
        @usableFromInline var upstream = SubscriptionSlot.awaiting

        @inlinable init(subject: Downstream, strongly: Bool) {
            hold = SubjectHold(subject, strongly: strongly)
        }
    }

    @usableFromInline let state: Locked<State>
    /// A strongly held subject, unretained, for ``receiveFromSubject(_:)``. Valid until ``terminated``: the
    /// hold lets go only after it is set and no call through this reference can be out (``cancel()``).
    @usableFromInline let unretained: Unmanaged<Downstream>?
    /// Nothing more reaches the subject through ``unretained``.
    @usableFromInline let terminated = Atomic<Bool>(false)
    /// A Sluice subject upstream took this subscriber's entries: a completion not through them may be
    /// concurrent with a call through ``unretained``.
    @usableFromInline let calledBySubject = Atomic<Bool>(false)

    @inlinable
    init(_ subject: Downstream, strongly: Bool) {
        state = Locked(State(subject: subject, strongly: strongly))
        unretained = strongly ? .passUnretained(subject) : nil
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let subject = state.withLock { state -> Downstream?? in
            guard state.upstream.attach(subscription) else { return nil }
            return .some(state.hold.subject)
        }
        guard let subject else {
            subscription.cancel()
            return
        }
        subject?.send(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let subject = state.withLock { $0.upstream.isSubscribed ? $0.hold.subject : nil }
        if let subject { send(input, to: subject) }
        return .none
    }

    /// Sends `input` unless this subscription has ended, decided under a Sluice subject's lock: with
    /// ``fenceSubject()``, a value on its way at `cancel()` reaches the subject before it returns or never,
    /// so a reconnected `share()` never delivers an old connection's straggler (issue 29).
    @inlinable
    func send(_ input: Input, to subject: Downstream) {
        if let passthrough = subject as? PassthroughSubject<Input, Failure> {
            passthrough.storage.send(input, setCurrent: false) { _ in !terminated.load(ordering: .acquiring) }
        } else if let current = subject as? CurrentValueSubject<Input, Failure> {
            current.storage.send(input, setCurrent: true) { _ in !terminated.load(ordering: .acquiring) }
        } else if !terminated.load(ordering: .acquiring) {
            subject.send(input)
        }
    }

    /// After ``terminated`` is set: takes and releases a Sluice subject's lock, so that a ``send(_:to:)``
    /// that has not yet offered its value sees ``terminated``.
    @inlinable
    func fenceSubject() {
        guard let subject = state.withLock({ $0.hold.subject }) else { return }
        if let passthrough = subject as? PassthroughSubject<Input, Failure> {
            passthrough.storage.state.withLock { _ in }
        } else if let current = subject as? CurrentValueSubject<Input, Failure> {
            current.storage.state.withLock { _ in }
        }
    }

    /// A value from a Sluice subject's deliverer, past the lock: it calls this only while holding this
    /// subscriber's conduit, and ``cancel()`` keeps the subject until that call has returned.
    @inlinable
    func receiveFromSubject(_ input: Input) -> Subscribers.Demand {
        if !terminated.load(ordering: .acquiring) {
            unretained.unsafelyUnwrapped._withUnsafeGuaranteedRef { send(input, to: $0) }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard calledBySubject.load(ordering: .acquiring) else {
            receiveCompletionFromUpstream(completion)
            return
        }
        // Not through the upstream subject's entry: a value may be on its way through `unretained`.
        // Stop the subject, and let go of ours once that call has returned.
        let (ended, subject) = state.withLock { state in (state.upstream.end(), state.hold.subject) }
        guard let ended else { return }
        terminated.store(true, ordering: .releasing)
        subject?.send(completion: completion)
        if stopSubjectReportingDelivery(ended.upstream, owner: self) { return }
        releaseSubject()
    }

    /// The upstream's own completion, after its last value. One before the subscription is ignored, as
    /// Combine's subject subscriber does.
    @inlinable
    func receiveCompletionFromUpstream(_ completion: Subscribers.Completion<Failure>) {
        let ended = state.withLock { state -> Downstream?? in
            guard state.upstream.isSubscribed, state.upstream.end() != nil else { return nil }
            defer { state.hold.subject = nil }
            return .some(state.hold.subject)
        }
        guard let subject = ended else { return }
        terminated.store(true, ordering: .releasing)
        subject?.send(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        state.withLock { $0.upstream.current }?.request(demand)
    }

    /// Lets go of the subject once a concurrent ``receiveFromSubject(_:)`` has returned. Only the call that
    /// ends the subscription lets go: a later one may come while the first waits, and must not free it.
    @inlinable
    func cancel() {
        guard let ended = state.withLock({ $0.upstream.end() }) else { return }
        terminated.store(true, ordering: .releasing)
        fenceSubject()
        if let upstream = ended.upstream, cancelReportingDelivery(upstream, owner: self) { return }
        releaseSubject()
    }

    @usableFromInline
    func deliveryEnded() {
        releaseSubject()
    }

    @usableFromInline
    func releaseSubject() {
        let subject = state.withLock { state in
            defer { state.hold.subject = nil }
            return state.hold.subject
        }
        withExtendedLifetime(subject) {}  // a strongly held subject is released after unlocking
    }

    @usableFromInline var description: String { "Subject" }

    @usableFromInline var customMirror: Mirror {
        let (subject, upstream) = state.withLock { ($0.hold.subject as Any, $0.upstream.current as Any) }
        return Mirror(self, children: ["downstreamSubject": subject, "upstreamSubscription": upstream])
    }

    @usableFromInline var playgroundDescription: Any { description }
}

extension SubjectSubscriber: SubjectDeliveredSubscriber {
    /// For a strongly held subject: a Sluice subject upstream delivers past the lock.
    @inlinable
    func makeSubjectEntries() -> SubjectEntries<Input, Failure>? {
        guard unretained != nil else { return nil }
        calledBySubject.store(true, ordering: .releasing)
        return SubjectEntries(
            owner: self, receive: { self.receiveFromSubject($0) },
            receiveCompletion: { self.receiveCompletionFromUpstream($0) },
            deliveryEnded: { self.deliveryEnded() })
    }
}

/// How a ``SubjectSubscriber`` holds its subject until the subscription ends: weakly for
/// `publisher.subscribe(subject)` and `multicast(subject:)` (so the subject does not outlive its owner and
/// subscribers through its upstreams, as in Combine); strongly for `share()`'s and `makeConnectable()`'s
/// connection (whose subject no one else sees) and `AnySubscriber(subject)`, sparing each value a weak load.
/// The cycle through a strongly held subject is broken when the connection ends.
@usableFromInline
struct SubjectHold<Held: Subject> {
    @usableFromInline weak var weakSubject: Held?
    @usableFromInline var strongSubject: Held?
    /// Whether it keeps the subject alive (so an unretained reference is valid until it lets go).
    @usableFromInline let isStrong: Bool

    @inlinable
    init(_ subject: Held, strongly: Bool) {
        isStrong = strongly
        if strongly { strongSubject = subject } else { weakSubject = subject }
    }

    @inlinable
    var subject: Held? {
        get { isStrong ? strongSubject : weakSubject }
        set {
            if isStrong { strongSubject = newValue } else { weakSubject = newValue }
        }
    }
}
