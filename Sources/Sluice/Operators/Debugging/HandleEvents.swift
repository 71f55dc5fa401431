extension Publishers {
    /// A publisher that calls closures when any of its events happens: subscription, output,
    /// completion, cancel, request.
    ///
    /// Each closure runs on the thread of the event it observes, before the event is passed
    /// on (for a request or cancel: before it reaches the upstream). Demand is unchanged.
    ///
    /// As in Combine, the closures also see what comes before the upstream's subscription or against the
    /// rules: every subscription the upstream sends (a second one is then cancelled), a request made before
    /// the subscription (not passed on), and a cancel made before it (otherwise ignored: the subscription
    /// that comes later is taken). After the stream ends (completion or cancel) no closure is called again.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose events this one observes.
        public let upstream: Upstream

        /// Called with the upstream's subscription, before the downstream gets it.
        public var receiveSubscription: ((any Subscription) -> Void)?

        /// Called with each element, before the downstream gets it.
        public var receiveOutput: ((Upstream.Output) -> Void)?

        /// Called with the completion, before the downstream gets it.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

        /// Called when the downstream cancels, before the upstream is cancelled.
        public var receiveCancel: (() -> Void)?

        /// Called with each demand the downstream requests, before the upstream gets it.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher observing the events of `upstream` with the given closures.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Upstream.Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Subscribes `subscriber` through the observing subscription.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let hooks = EventHooks(
                subscription: receiveSubscription,
                output: receiveOutput,
                completion: receiveCompletion,
                cancel: receiveCancel.map { runOn(isolation, $0) },
                request: receiveRequest.map { runOn(isolation, $0) }
            )
            upstream.receive(
                subscriber: ObservingSubscription(name: "HandleEvents", hooks: hooks, downstream: subscriber),
                isolation: isolation
            )
        }
    }
}

extension Publisher {
    /// Calls the given closures when events happen, for side effects such as logging; the
    /// events themselves pass through unchanged.
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest,
            isolation: isolation
        )
    }
}

extension Publishers.HandleEvents: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
