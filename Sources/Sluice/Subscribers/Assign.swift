extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key
    /// path.
    ///
    /// It requests `.unlimited` when subscribed, holds ``object`` strongly until the
    /// publisher completes or the subscriber is cancelled, and then releases it. A second
    /// subscription is cancelled, as in Combine.
    ///
    /// ```swift
    /// final class Model { var count = 0 }
    /// let model = Model()
    /// let assign = Subscribers.Assign(object: model, keyPath: \.count)
    /// [1, 2].publisher.subscribe(assign)   // model.count == 2
    /// ```
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// This subscriber accepts only publishers that never fail.
        ///
        /// ```swift
        /// let assign: some Subscriber<Int, Never> = Subscribers.Assign(object: model, keyPath: \Model.count)
        /// ```
        public typealias Failure = Never

        private struct State {
            var subscription = SubscriptionSlot.awaiting
            var object: Root?
        }

        private let state: Locked<State>

        /// The object that contains the property to assign; `nil` once completed or cancelled.
        ///
        /// ```swift
        /// assign.cancel()
        /// assign.object   // nil
        /// ```
        public var object: Root? { state.withLock { $0.object } }

        /// The key path that indicates the property to assign.
        ///
        /// ```swift
        /// assign.keyPath   // \Model.count
        /// ```
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        ///
        /// ```swift
        /// let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
        /// ```
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            state = Locked(State(object: object))
            self.keyPath = keyPath
        }

        /// Stores the subscription and requests `.unlimited`; a second one is cancelled.
        ///
        /// ```swift
        /// [1, 2].publisher.subscribe(assign)   // receive(subscription:) requests .unlimited
        /// ```
        public func receive(subscription: any Subscription) {
            if state.withLock({ $0.subscription.attach(subscription) }) {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Assigns the value to the property (outside the lock); ignored once terminated.
        ///
        /// ```swift
        /// Just(5).subscribe(Subscribers.Assign(object: model, keyPath: \Model.count))   // model.count == 5
        /// ```
        public func receive(_ value: Input) -> Subscribers.Demand {
            if let object = state.withLock({ $0.object }) {
                object[keyPath: keyPath] = value
            }
            return .none
        }

        /// Releases the object and the subscription.
        ///
        /// ```swift
        /// Just(1).subscribe(assign)   // Just finishes: assign.object == nil
        /// ```
        public func receive(completion: Subscribers.Completion<Never>) {
            _ = terminate()
        }

        /// Cancels the subscription and releases the object. Idempotent.
        ///
        /// ```swift
        /// assign.cancel()
        /// ```
        public func cancel() {
            terminate()?.cancel()
        }

        /// Ends the subscriber; returns the upstream to cancel, if it was subscribed.
        /// The object and subscription are released after the lock.
        private func terminate() -> (any Subscription)? {
            let (upstream, object) = state.withLock { state -> ((any Subscription)??, Root?) in
                let object = state.object
                state.object = nil
                return (state.subscription.terminate(), object)
            }
            _ = object
            return upstream ?? nil
        }

        /// `"Assign \(Root.self)."`, as Combine prints it.
        ///
        /// ```swift
        /// print(Subscribers.Assign(object: model, keyPath: \Model.count))   // Assign Model.
        /// ```
        public var description: String { "Assign \(Root.self)." }

        /// The object, key path and upstream subscription, as Combine shows them.
        ///
        /// ```swift
        /// Mirror(reflecting: assign).children.map(\.label)   // object, keyPath, upstreamSubscription
        /// ```
        public var customMirror: Mirror {
            let (object, upstream) = state.withLock { ($0.object, $0.subscription.current) }
            return Mirror(self, children: [
                "object": object as Any,
                "keyPath": keyPath,
                "upstreamSubscription": upstream as Any,
            ])
        }

        /// `"Assign \(Root.self)."`, as Combine prints it.
        ///
        /// ```swift
        /// assign.playgroundDescription as? String   // "Assign Model."
        /// ```
        public var playgroundDescription: Any { description }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object.
    ///
    /// The object is held strongly until the publisher finishes or the returned
    /// ``AnyCancellable`` is cancelled.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.assign(to: \.count, on: model)
    /// ```
    public func assign<Root>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
    ) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}
