extension Publishers {
    /// A publisher that replaces its upstream, when it fails, with the publisher a throwing
    /// handler makes from the failure; an error thrown by the handler fails the stream.
    ///
    /// Its `Failure` is `any Error`: the handler's error or the new publisher's failure. Otherwise it behaves
    /// as ``Publishers/Catch``: demand outstanding at the failure carries over to the new publisher, a cancel
    /// reaches whichever is current, and `request(.none)` traps (rule 2), as Combine's does, as does an
    /// upstream that breaks the contract where ``Publishers/Catch``'s traps.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose failure this one handles.
        public let upstream: Upstream

        /// Makes the publisher that replaces the upstream after its failure, or throws to
        /// end the stream with the error thrown.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher that replaces `upstream`, when it fails, with `handler`'s
        /// publisher, or fails with the error `handler` throws.
        public init(
            upstream: Upstream,
            handler: @escaping (Upstream.Failure) throws -> NewPublisher,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.handler = handler
        }

        /// Subscribes `subscriber`; the handler runs at most once per subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UpstreamRelay(
                name: "TryCatch",
                downstream: subscriber,
                trapsOnZeroDemand: true,
                checks: .firstUpstream,
                mirrorsDemand: true
            )
            let handler = handler
            relay.subscribe(upstream.hopping(to: isolation)) { completion in
                guard case .failure(let failure) = completion else { return relay.complete(.finished) }
                let next: NewPublisher
                do {
                    next = try handler(failure)
                } catch {
                    return relay.complete(.failure(error))
                }
                relay.subscribe(next) { completion in
                    switch completion {
                    case .finished: relay.complete(.finished)
                    case .failure(let error): relay.complete(.failure(error))
                    }
                }
            }
        }
    }
}

extension Publisher {
    /// Replaces the upstream, when it fails, with the publisher `handler` makes from the failure, or fails
    /// with the error `handler` throws; outstanding demand carries over to the new publisher.
    ///
    /// <!-- snippet: TryCatchFallback -->
    /// ```swift
    /// let data = primary().tryCatch { error in
    ///     guard error.isRetryable else { throw error }
    ///     return mirror()
    /// }
    /// ```
    public func tryCatch<P: Publisher>(
        _ handler: @escaping (Failure) throws -> P,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryCatch<Self, P>
    where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler, isolation: isolation)
    }
}
