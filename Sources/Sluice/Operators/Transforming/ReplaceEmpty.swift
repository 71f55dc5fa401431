extension Publishers {
    /// A publisher that sends one element if its upstream finishes without sending any.
    ///
    /// Elements and a failure pass through. As Combine's, it asks the upstream for `.unlimited` once the
    /// downstream has its subscription, and passes the downstream's requests on too; the elements that come
    /// beyond the downstream's demand wait, in order, until it asks for them (rule 2: Combine's would send them
    /// anyway), and the completion goes out after the last of them. The replacement is sent only if the
    /// downstream has demand for it; if it has none outstanding when the upstream finishes, the replacement
    /// and `.finished` are held until its next request (a cancel drops them). `request(.none)` traps (rule 7),
    /// as Combine's does.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The element sent when the upstream finishes without elements.
        public let output: Upstream.Output

        /// The publisher whose emptiness this one replaces.
        public let upstream: Upstream

        /// Creates a publisher that sends `output` if `upstream` finishes without elements.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber`; each subscription looks at its own elements.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UpstreamRelay(
                name: "ReplaceEmpty", downstream: subscriber, trapsOnZeroDemand: true, asksUnlimited: true
            )
            let output = output
            relay.subscribe(upstream) { completion in
                if case .finished = completion, !relay.hasReceived {
                    relay.finish(sending: output)
                } else {
                    relay.complete(completion)
                }
            }
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Sends `output` if the upstream finishes without sending any element.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
