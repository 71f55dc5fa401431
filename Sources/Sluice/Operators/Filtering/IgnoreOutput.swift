extension Publishers {
    /// A publisher that ignores every element and passes on only the completion.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one ignores.
        public let upstream: Upstream

        /// Creates a publisher ignoring the elements of `upstream`.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Subscribes `subscriber`. As in Combine, the upstream's subscription is handed to the subscriber
        /// unchanged and then asked for `.unlimited` at once: with no element to send, the subscriber's
        /// demand has nothing to govern, and the completion goes out as soon as it comes.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: IgnoringSubscriber<Upstream.Output, S>(downstream: subscriber))
        }
    }
}

/// `ignoreOutput()`'s subscriber: passes the subscription and the completion on, drops values.
@usableFromInline
struct IgnoringSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible where Downstream.Input == Never {
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let downstream: Downstream

    @inlinable init(downstream: Downstream) { self.downstream = downstream }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
        subscription.request(.unlimited)
    }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand { .none }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }

    @usableFromInline var description: String { "IgnoreOutput" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}

extension Publisher {
    /// Ignores every element and passes on only the completion.
    ///
    /// Demand: the upstream is asked for `.unlimited` as soon as it subscribes, whatever the
    /// subscriber requests (as in Combine).
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> { Publishers.IgnoreOutput(upstream: self) }
}
