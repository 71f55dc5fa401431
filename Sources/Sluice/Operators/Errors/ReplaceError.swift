extension Publishers {
    /// A publisher that replaces its upstream's failure with one element, then finishes.
    ///
    /// Elements and demand pass through. The replacement is an element like any other: it is sent only if the
    /// downstream has demand for it. If the failure comes when the downstream has none outstanding, the
    /// replacement and `.finished` are held until its next request, as in Combine (a cancel drops them).
    /// `request(.none)` traps (rule 2), as Combine's does, and so does an upstream value the downstream has
    /// not asked for; a value before the upstream's subscription is ignored, as in Combine.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The element sent in place of the upstream's failure.
        public let output: Upstream.Output

        /// The publisher whose failure this one replaces.
        public let upstream: Upstream

        /// Creates a publisher that replaces the failure of `upstream` with `output`.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber`; each subscription may send the replacement once.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UpstreamRelay(
                name: "ReplaceError",
                downstream: subscriber,
                trapsOnZeroDemand: true,
                checks: .valuesAfterSubscription
            )
            let output = output
            relay.subscribe(upstream) { completion in
                switch completion {
                case .finished: relay.complete(.finished)
                case .failure: relay.finish(sending: output)
                }
            }
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Replaces a failure with `output`, sent as the last element before finishing.
    ///
    /// The failure itself is lost: use `catch` to look at it, or to continue with another
    /// publisher. The replacement waits for demand, like any element.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}
