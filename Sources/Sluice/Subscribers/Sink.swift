import Synchronization

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// Usually made by ``Publisher/sink(receiveCompletion:receiveValue:)``. A second
    /// subscription is cancelled, as in Combine. After ``cancel()`` no more values or
    /// completion reach the closures.
    ///
    /// ```swift
    /// let sink = Subscribers.Sink<Int, Never>(
    ///     receiveCompletion: { print("completion:", $0) },
    ///     receiveValue: { print("value:", $0) })
    /// [1, 2].publisher.subscribe(sink)
    /// ```
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        @usableFromInline
        struct Handlers {
            @usableFromInline let value: (Input) -> Void
            @usableFromInline let completion: (Subscribers.Completion<Failure>) -> Void
        }

        /// The closure to execute on receipt of a value; a closure that does nothing once the
        /// sink has completed or been cancelled (it has released the one it was given).
        public var receiveValue: (Input) -> Void {
            defer { releaseIfDone(gate.exit()) }
            return gate.enter() ? handlers.unsafelyUnwrapped.value : { _ in }
        }

        /// The closure to execute on completion; a closure that does nothing once the sink has
        /// completed or been cancelled.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            defer { releaseIfDone(gate.exit()) }
            return gate.enter() ? handlers.unsafelyUnwrapped.completion : { _ in }
        }

        /// The closures, until the sink completes or is cancelled: then they are released (and
        /// with them whatever they capture, often the object that keeps the sink). Read and
        /// cleared only as ``TerminationGate`` allows, so never while another thread calls them.
        @exclusivity(unchecked) @usableFromInline
        var handlers: Handlers?

        @usableFromInline let gate = TerminationGate()

        /// Where the closures must run: the actor of the code that made the sink, or `nil`.
        @usableFromInline let delivery: ActorDelivery<Sink>?

        private let subscription = Locked(SubscriptionSlot.awaiting)

        /// Creates a sink with the closures to run on completion and on each value.
        ///
        /// Made in actor-isolated code (`isolation` defaults to the caller's actor), the
        /// closures run on that actor: at once when a signal arrives already on the main actor
        /// for a main-actor sink, otherwise in order, after a hop to it. Made outside any actor, they
        /// run on whatever thread the publisher signals from, as in Combine.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void,
            isolation: (any Actor)? = #isolation
        ) {
            handlers = Handlers(value: receiveValue, completion: receiveCompletion)
            delivery = isolation.map(ActorDelivery.init(actor:))
        }

        /// Stores the subscription and requests `.unlimited`; a second one is cancelled.
        public func receive(subscription: any Subscription) {
            if self.subscription.withLock({ $0.attach(subscription) }) {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Runs `receiveValue` (on the sink's actor, if it has one) unless the sink has
        /// completed or been cancelled.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if let delivery {
                delivery.deliver(.value(value), to: self)
            } else {
                deliverValue(value)
            }
            return .none
        }

        /// Runs `receiveCompletion` once (on the sink's actor, if it has one), unless the sink
        /// was cancelled, then releases both closures.
        public func receive(completion: Subscribers.Completion<Failure>) {
            guard subscription.withLock({ $0.terminate() }) != nil else { return }
            if let delivery {
                delivery.deliver(.completion(completion), to: self)
            } else {
                deliverCompletion(completion)
            }
        }

        /// Cancels the subscription and releases both closures; nothing reaches them afterwards
        /// (made on an actor and cancelled off it, a signal the actor is already running still
        /// finishes). Idempotent and thread-safe.
        public func cancel() {
            let upstream = subscription.withLock { $0.terminate() }
            releaseIfDone(gate.terminate())
            upstream??.cancel()
        }

        @inlinable
        func deliverValue(_ value: Input) {
            if gate.enter() { handlers.unsafelyUnwrapped.value(value) }
            releaseIfDone(gate.exit())
        }

        @usableFromInline
        func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
            guard gate.enterFinal() else { return }
            handlers.unsafelyUnwrapped.completion(completion)
            releaseIfDone(gate.exit())
        }

        @inlinable
        func releaseIfDone(_ release: Bool) {
            if release { releaseHandlers() }
        }

        @usableFromInline @inline(never)
        func releaseHandlers() {
            handlers = nil
        }

        /// `"Sink"`, as Combine prints it.
        ///
        /// ```swift
        /// print(Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in }))   // Sink
        /// ```
        public var description: String { "Sink" }

        /// An empty mirror, as Combine shows it.
        ///
        /// ```swift
        /// Mirror(reflecting: sink).children.isEmpty   // true
        /// ```
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// `"Sink"`, as Combine prints it.
        ///
        /// ```swift
        /// sink.playgroundDescription as? String   // "Sink"
        /// ```
        public var playgroundDescription: Any { description }
    }
}

extension Subscribers.Sink: ActorBoundSubscriber {
    @usableFromInline
    func perform(_ event: SubscriberEvent<Input, Failure>) {
        switch event {
        case .value(let value): deliverValue(value)
        case .completion(let completion): deliverCompletion(completion)
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior; it requests unlimited values.
    ///
    /// Keep the returned ``AnyCancellable``: deinitializing it cancels the subscription, and
    /// the sink releases its closures when it completes or is cancelled.
    ///
    /// Threads and actors: called from actor-isolated code, the closures run on that actor
    /// (`isolation` is the caller's, filled in by the compiler), so they can touch its state
    /// safely: at once, in Combine's order, when a signal arrives already on the main actor for
    /// a main-actor sink; otherwise in order, after a hop to the actor. Called outside any actor,
    /// they run on whatever thread the publisher signals from, as in Combine.
    ///
    /// ```swift
    /// @MainActor final class ViewModel {
    ///     var title = ""
    ///     var bag = Set<AnyCancellable>()
    ///     func bind(_ titles: PassthroughSubject<String, Never>) {
    ///         // Runs on the main actor even when `titles` is sent to from another task.
    ///         titles.sink { self.title = $0 }.store(in: &bag)
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
