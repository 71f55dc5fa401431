extension Publishers {
    /// A publisher that shares one subscription of its upstream among all the subscribers it has at a time.
    ///
    /// It is a multicast through a `PassthroughSubject` with ``Publishers/Autoconnect``: the first subscriber
    /// subscribes the upstream (which is asked for `.unlimited` once some subscriber has asked for anything);
    /// later ones join that subscription and miss what it sent before they came, and each receives only what
    /// it has demand for. When every subscriber has cancelled, the upstream subscription is cancelled, and
    /// the next subscriber subscribes the upstream again. The subject lives as long as the share: once the
    /// upstream has completed, every later subscriber receives that completion at once, as in Combine (the
    /// upstream is not run again).
    ///
    /// A class, so the share is one identity: copies of the reference share one subscription,
    /// and `==` compares identity.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements are shared.
        public let upstream: Upstream

        @usableFromInline let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates a publisher sharing `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
            inner = Autoconnect(upstream: Multicast(upstream: upstream, keepingSubject: ()) { PassthroughSubject() })
        }

        /// Subscribes `subscriber`; the first one since the upstream subscription was last
        /// cancelled subscribes the upstream.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        /// Whether `lhs` and `rhs` are the same share.
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}

extension Publisher {
    /// Shares this publisher among all the subscribers it has at a time; see ``Publishers/Share``.
    ///
    /// <!-- snippet: ShareOneUpstream -->
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let shared = subject.map { $0 * 10 }.share()   // the map runs once per value
    /// let first = shared.sink { received.append("first \($0)") }
    /// let second = shared.sink { received.append("second \($0)") }
    /// subject.send(1)   // received == ["first 10", "second 10"]
    /// ```
    @inlinable
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}
