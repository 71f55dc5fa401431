extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    ///
    /// It requests `.unlimited` when subscribed, holds ``object`` strongly until the publisher
    /// completes or the subscriber is cancelled, then releases it. A second subscription is
    /// cancelled, as in Combine.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// This subscriber accepts only publishers that never fail.
        public typealias Failure = Never

        private struct State {
            var subscription = SubscriptionSlot.awaiting
            var object: Root?
        }

        private let state: Locked<State>

        /// Where the assignments run: the actor of the code that made the subscriber, or `nil`.
        private let delivery: ActorDelivery<Assign>?

        /// The object that contains the property to assign; `nil` once completed or cancelled.
        public var object: Root? { state.withLock { $0.object } }

        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        ///
        /// Combine's signature, so that extension libraries' overloads with a defaulted parameter
        /// (`assign(to:on:ownership:)`) stay unambiguous next to it. Made on the main actor, it assigns
        /// on the main actor: at once when a value arrives already there, otherwise in order, after a
        /// hop (the main actor is the one actor the caller can be seen to run on). Made anywhere else,
        /// it assigns on whatever thread the publisher signals from, as in Combine; for another actor,
        /// use ``init(object:keyPath:isolation:)``.
        public convenience init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.init(object: object, keyPath: keyPath, isolation: mainActorIfRunningOnIt())
        }

        /// Creates a subscriber that assigns on `isolation` (pass `#isolation`, or the actor that
        /// owns `object`): at once when a value arrives already on the main actor for a main-actor
        /// subscriber, otherwise in order, after a hop to it. With `nil`, it assigns on whatever
        /// thread the publisher signals from, as in Combine.
        public init(
            object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>,
            isolation: (any Actor)?
        ) {
            state = Locked(State(object: object))
            self.keyPath = keyPath
            delivery = isolation.map(ActorDelivery.init(actor:))
        }

        /// Stores the subscription and requests `.unlimited`; a second one is cancelled.
        public func receive(subscription: any Subscription) {
            if state.withLock({ $0.subscription.attach(subscription) }) {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Assigns the value to the property (on the subscriber's actor, if it has one). A value
        /// that arrives before the subscription or after the completion is ignored, as in Combine.
        public func receive(_ value: Input) -> Subscribers.Demand {
            guard state.withLock({ $0.subscription.current != nil }) else { return .none }
            if let delivery {
                delivery.deliver(.value(value), to: self)
            } else {
                perform(.value(value))
            }
            return .none
        }

        /// Releases the subscription, then the object (on the actor, after the assignments queued before it).
        public func receive(completion: Subscribers.Completion<Never>) {
            guard state.withLock({ $0.subscription.end() }) != nil else { return }
            if let delivery {
                delivery.deliver(.completion(completion), to: self)
            } else {
                perform(.completion(completion))
            }
        }

        /// Cancels the subscription and releases the object; nothing is assigned afterwards (an
        /// assignment the actor is already running still finishes). Idempotent and thread-safe.
        public func cancel() {
            let (ended, object) = state.withLock { state -> (SubscriptionSlot.Ended?, Root?) in
                defer { state.object = nil }
                return (state.subscription.end(), state.object)
            }
            _ = object   // released here, after the lock
            ended?.upstream?.cancel()
        }

        /// `"Assign \(Root.self)."`, as Combine prints it.
        public var description: String { "Assign \(Root.self)." }

        /// The object, the key path and the upstream's status, as Combine shows them.
        public var customMirror: Mirror {
            let (object, status) = state.withLock { ($0.object, $0.subscription.status) }
            return Mirror(self, children: ["object": object as Any, "keyPath": keyPath, "status": status])
        }

        /// The same as ``description``, for playgrounds.
        public var playgroundDescription: Any { description }
    }
}

extension Subscribers.Assign: ActorBoundSubscriber {
    /// Assigns a value, or releases the object at the completion: on the subscriber's actor, or
    /// inline when it has none.
    @usableFromInline func perform(_ event: SubscriberEvent<Input, Never>) {
        switch event {
        case .value(let value):
            if let object = state.withLock({ $0.object }) {
                object[keyPath: keyPath] = value
            }
        case .completion:
            let object = state.withLock { state -> Root? in
                defer { state.object = nil }
                return state.object
            }
            _ = object   // released here, after the lock
        case .subscription:
            break
        }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object.
    ///
    /// The object is held strongly until the publisher finishes or the returned ``AnyCancellable`` is
    /// cancelled. Called on the main actor, the assignments run on the main actor, as
    /// ``Subscribers/Assign/init(object:keyPath:)`` says; for another actor, pass it:
    /// ``assign(to:on:isolation:)``.
    ///
    /// Combine's exact signature on purpose: an extension library's overload that adds a defaulted
    /// parameter (CombineExt's `assign(to:on:ownership:)`) would make a call without it ambiguous
    /// if this one carried a defaulted parameter of its own.
    public func assign<Root>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
    ) -> AnyCancellable {
        assign(to: keyPath, on: object, isolation: mainActorIfRunningOnIt())
    }

    /// Assigns each element to a property on an object, on `isolation`: pass `#isolation` from
    /// actor-isolated code, or the actor that owns `object`.
    public func assign<Root>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root,
        isolation: (any Actor)?
    ) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath, isolation: isolation)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}
