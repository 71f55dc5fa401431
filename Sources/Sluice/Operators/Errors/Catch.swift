extension Publishers {
    /// A publisher that replaces its upstream, when it fails, with the publisher a handler
    /// makes from the failure.
    ///
    /// Until the failure, elements and demand pass through. Then the handler runs (on the thread of the
    /// failure) and the downstream continues with its publisher, which is asked at once for the demand the
    /// downstream still has outstanding; the downstream keeps the one subscription it was given. A cancel
    /// reaches whichever publisher is current. The stream ends with the upstream's `.finished`, or with the
    /// new publisher's completion. `request(.none)` traps (rule 2), as Combine's does; so does an upstream
    /// that breaks the contract where Combine's traps: a value the downstream has not asked for or one before
    /// the upstream's subscription (rules 2 and 1), a failure after its failure (the handler making it fail
    /// again, say) or before its subscription (rules 4 and 1). The handler's publisher is not checked, as in
    /// Combine.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure

        /// The publisher whose failure this one handles.
        public let upstream: Upstream

        /// Makes the publisher that replaces the upstream after its failure.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher that replaces `upstream`, when it fails, with `handler`'s publisher.
        public init(
            upstream: Upstream,
            handler: @escaping (Upstream.Failure) -> NewPublisher,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.handler = handler
        }

        /// Subscribes `subscriber`; the handler runs at most once per subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UpstreamRelay(
                name: "Catch",
                downstream: subscriber,
                trapsOnZeroDemand: true,
                checks: .firstUpstream,
                mirrorsDemand: true
            )
            let handler = handler
            relay.subscribe(upstream.hopping(to: isolation)) { completion in
                switch completion {
                case .finished: relay.complete(.finished)
                case .failure(let failure): relay.subscribe(handler(failure)) { relay.complete($0) }
                }
            }
        }
    }
}

extension Publisher {
    /// Replaces the upstream, when it fails, with the publisher `handler` makes from the
    /// failure; outstanding demand carries over to it.
    public func `catch`<P: Publisher>(
        _ handler: @escaping (Failure) -> P,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler, isolation: isolation)
    }
}
