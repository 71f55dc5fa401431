import Synchronization

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// Usually made by ``Publisher/sink(receiveCompletion:receiveValue:isolation:)``. A second
    /// subscription is cancelled, as in Combine; after ``cancel()`` nothing reaches the closures.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// The two closures, boxed so that a delivery calls them through an unretained reference
        /// (reading closures out of a mutable field would retain and release them for every value).
        @usableFromInline
        final class Handlers {
            @usableFromInline let value: (Input) -> Void
            @usableFromInline let completion: (Subscribers.Completion<Failure>) -> Void
            @inlinable
            init(value: @escaping (Input) -> Void, completion: @escaping (Subscribers.Completion<Failure>) -> Void) {
                self.value = value
                self.completion = completion
            }
        }

        /// The closure to execute on receipt of a value; a closure that does nothing once the
        /// sink has completed or been cancelled (it has released the one it was given).
        public var receiveValue: (Input) -> Void {
            defer { releaseIfDone(gate.exit()) }
            return gate.enter() ? handlers.unsafelyUnwrapped.takeUnretainedValue().value : { _ in }
        }

        /// The closure to execute on completion; one that does nothing once completed or cancelled.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            defer { releaseIfDone(gate.exit()) }
            return gate.enter() ? handlers.unsafelyUnwrapped.takeUnretainedValue().completion : { _ in }
        }

        /// Retained once; released (with what they capture, often the sink's owner) at completion or
        /// cancel. Used and cleared only as ``TerminationGate`` allows, so never freed under a call.
        @exclusivity(unchecked) @usableFromInline
        var handlers: Unmanaged<Handlers>?

        @usableFromInline let gate = TerminationGate()

        /// The thread inside this sink's own `request(.unlimited)` (0 when none): that call holds
        /// the gate, so a value a synchronous publisher delivers inside it needs no gate of its own.
        @usableFromInline let requestingThread = Atomic<UInt>(0)

        /// A subject has taken this sink's entries (``makeSubjectEntries()``): values may come past
        /// the gate, so a cancel or completion from elsewhere holds it for a call in progress.
        @usableFromInline let calledBySubject = Atomic<Bool>(false)

        /// Where the closures must run: the actor of the code that made the sink, or `nil`.
        @usableFromInline let delivery: ActorDelivery<Sink>?

        /// Who may touch ``upstream``, without a lock (a lock object would be one more allocation per sink,
        /// the "Just(i) → sink" row): 0 none came yet, 1 ``receive(subscription:)`` is storing it, 2 stored,
        /// 3 ended. Only the thread that moved 0 → 1 writes it, before 1 → 2 (releasing) or, finding 3, to take
        /// it back; only the one whose exchange to 3 found 2 (acquiring) reads and clears it. No two overlap.
        @usableFromInline let upstreamState = Atomic<UInt8>(0)
        @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?

        /// Creates a sink with the closures to run on completion and on each value.
        ///
        /// Made in actor-isolated code (`isolation` defaults to the caller's actor), the closures run on that
        /// actor: at once when a signal arrives already on the main actor for a main-actor sink, otherwise in
        /// order, after a hop to it. Made outside any actor, they run on whatever thread the publisher
        /// signals from, as in Combine.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void,
            isolation: (any Actor)? = #isolation
        ) {
            handlers = Unmanaged.passRetained(Handlers(value: receiveValue, completion: receiveCompletion))
            delivery = isolation.map(ActorDelivery.init(actor:))
        }

        deinit {
            if !gate.isReleased { handlers?.release() }
        }

        /// Stores the subscription and requests `.unlimited`; a second one is cancelled.
        @inlinable
        public func receive(subscription: any Subscription) {
            guard attachUpstream(subscription) else {
                subscription.cancel()
                return
            }
            let entered = gate.enter()
            if entered { requestingThread.store(currentThreadIdentity(), ordering: .relaxed) }
            subscription.request(.unlimited)
            if entered { requestingThread.store(0, ordering: .relaxed) }
            releaseIfDone(gate.exit())
        }

        /// Runs `receiveValue` (on the sink's actor, if any) unless the sink has completed or been cancelled.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if delivery == nil {
                deliverValue(value)
            } else {
                deliverThroughActor(value)
            }
            return .none
        }

        /// Out of line, so that a sink outside any actor, called unspecialised, does not look
        /// up the metadata of the event type it never makes.
        @usableFromInline @inline(never)
        func deliverThroughActor(_ value: Input) {
            delivery.unsafelyUnwrapped.deliver(.value(value), to: self)
        }

        /// Runs `receiveCompletion` once (on the sink's actor, if any) unless cancelled; releases both closures.
        ///
        /// Called by your own code while subscribed to a Sluice subject (straight, or through
        /// `share()` or `multicast`), it also cancels that subscription as ``cancel()`` does, and
        /// releases the closures once a value in delivery has returned. Combine's cancels nothing.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            guard calledBySubject.load(ordering: .acquiring) else {
                receiveCompletionFromUpstream(completion)
                return
            }
            // Not from the subject (it uses its own entry): a subject's value may be running past
            // the gate, even on this thread. Hold the gate for it; the subject says when it returns.
            _ = gate.enter()
            guard let ended = endUpstream() else {
                releaseIfDone(gate.exit())
                return
            }
            let reported = stopSubjectReportingDelivery(ended.upstream, owner: self)
            deliver(completion)
            if !reported { releaseIfDone(gate.exit()) }
        }

        /// The completion from the upstream itself, after its last value.
        @inlinable
        func receiveCompletionFromUpstream(_ completion: Subscribers.Completion<Failure>) {
            guard endUpstream() != nil else { return }
            deliver(completion)
        }

        @inlinable
        func deliver(_ completion: Subscribers.Completion<Failure>) {
            if let delivery {
                delivery.deliver(.completion(completion), to: self)
            } else {
                deliverCompletion(completion)
            }
        }

        /// Cancels the subscription and releases both closures; nothing reaches them afterwards (a
        /// signal the sink's actor is already running still finishes). Idempotent and thread-safe.
        @inlinable
        public func cancel() {
            guard calledBySubject.load(ordering: .acquiring) else {
                // Completed already (the usual cancel, an AnyCancellable's at its end): nothing left to cancel or
                // release, so none of the read-modify-writes below (the "Just(i) → sink" row).
                if upstreamState.load(ordering: .relaxed) == 3 && gate.isTerminated { return }
                let ended = endUpstream()
                releaseIfDone(gate.terminate())
                ended?.upstream?.cancel()
                return
            }
            // A subject may be calling `receiveFromSubject` outside the gate: hold the gate until
            // it says that call returned. The hold comes before the subscription ends, so a second
            // cancel, finding it ended, cannot release while the first has yet to ask the subject.
            _ = gate.enter()
            let upstream = endUpstream()?.upstream
            _ = gate.terminate()  // never the releaser: the hold is in
            if let upstream, cancelReportingDelivery(upstream, owner: self) { return }
            releaseIfDone(gate.exit())
        }

        /// A value from a Sluice subject's deliverer, past the gate: a cancel or completion meanwhile
        /// holds the gate until ``deliveryEnded()``, so the closures cannot be freed under it.
        @inlinable
        func receiveFromSubject(_ value: Input) -> Subscribers.Demand {
            if delivery == nil {
                if !gate.isTerminated { handlers.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.value(value) } }
            } else {
                deliverThroughActor(value)
            }
            return .none
        }

        /// The subject's call that was out at the cancel has returned: ends ``cancel()``'s hold.
        @usableFromInline
        func deliveryEnded() {
            releaseIfDone(gate.exit())
        }

        @inlinable
        func deliverValue(_ value: Input) {
            if requestingThread.load(ordering: .relaxed) == currentThreadIdentity() {
                // Inside this sink's own request, which holds the gate.
                if !gate.isTerminated { handlers.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.value(value) } }
                return
            }
            if gate.enter() { handlers.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.value(value) } }
            releaseIfDone(gate.exit())
        }

        @inlinable
        func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
            guard gate.enterFinal() else { return }
            handlers.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.completion(completion) }
            releaseIfDone(gate.exit())
        }

        /// Takes the first subscription; false for a later one, or when the sink ended first (the caller
        /// cancels it).
        @inlinable
        func attachUpstream(_ subscription: any Subscription) -> Bool {
            guard upstreamState.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged else {
                return false
            }
            upstream = subscription
            if upstreamState.compareExchange(expected: 1, desired: 2, ordering: .releasing).exchanged { return true }
            upstream = nil  // ended while it was being stored
            return false
        }

        /// Ends the hand-off; `nil` if it had ended. A subscription being stored meanwhile is cancelled by
        /// ``attachUpstream(_:)``, which finds the end.
        @inlinable
        func endUpstream() -> SubscriptionSlot.Ended? {
            switch upstreamState.exchange(3, ordering: .acquiringAndReleasing) {
            case 3:
                return nil
            case 2:
                defer { upstream = nil }
                return SubscriptionSlot.Ended(upstream: upstream)
            default:
                return SubscriptionSlot.Ended(upstream: nil)
            }
        }

        @inlinable
        func releaseIfDone(_ release: Bool) {
            if release { releaseHandlers() }
        }

        @usableFromInline @inline(never)
        func releaseHandlers() {
            let released = handlers
            handlers = nil
            released?.release()
        }

        /// `"Sink"`, as Combine prints it.
        public var description: String { "Sink" }

        /// An empty mirror, as Combine shows it.
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// The same as ``description``, for playgrounds.
        public var playgroundDescription: Any { description }
    }
}

extension Subscribers.Sink: SubjectDeliveredSubscriber {
    @inlinable
    func makeSubjectEntries() -> SubjectEntries<Input, Failure>? {
        calledBySubject.store(true, ordering: .releasing)
        return SubjectEntries(
            owner: self, receive: { self.receiveFromSubject($0) },
            receiveCompletion: { self.receiveCompletionFromUpstream($0) }, deliveryEnded: { self.deliveryEnded() })
    }
}

extension Subscribers.Sink: ActorBoundSubscriber {
    @usableFromInline
    func perform(_ event: SubscriberEvent<Input, Failure>) {
        switch event {
        case .value(let value): deliverValue(value)
        case .completion(let completion): deliverCompletion(completion)
        case .subscription: break
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior; it requests unlimited values.
    ///
    /// Keep the returned ``AnyCancellable``: deinitializing it cancels the subscription, and
    /// the sink releases its closures when it completes or is cancelled.
    ///
    /// Threads and actors: called from actor-isolated code, the closures run on that actor (`isolation` is the
    /// caller's, filled in by the compiler), so they can touch its state safely: at once, in Combine's order,
    /// when a signal arrives already on the main actor for a main-actor sink; otherwise in order, after a hop
    /// to the actor (which it lets go after 1,024 signals in a row, so other work there gets a turn). Called
    /// outside any actor, they run on whatever thread the publisher signals from, as in Combine.
    ///
    /// Memory: the sink asks for `.unlimited`, so the hop's queue is not bounded: it holds what the
    /// publisher sends while the actor is busy. To bound it, use `sink(isolation:bufferingPolicy:receiveValue:)`
    /// with `.bufferingNewest(n)` or `.bufferingOldest(n)`, or `for await … in publisher.values` (one at a time).
    ///
    /// <!-- snippet: SinkOnMainActor -->
    /// ```swift
    /// @MainActor final class TitleModel {
    ///     private(set) var title = ""
    ///     private var bag = Set<AnyCancellable>()
    ///     func bind(_ titles: PassthroughSubject<String, Never>) {
    ///         // Runs on the main actor even when `titles` is sent to from another task; weak,
    ///         // as the model keeps the subscription.
    ///         titles.sink { [weak self] in self?.title = $0 }.store(in: &bag)
    ///     }
    /// }
    /// ```
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(
            receiveCompletion: receiveCompletion, receiveValue: receiveValue, isolation: isolation)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behavior to a publisher that never fails; it
    /// runs where ``Publisher/sink(receiveCompletion:receiveValue:isolation:)`` says.
    @inlinable
    public func sink(
        receiveValue: @escaping (Output) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue, isolation: isolation)
    }
}
