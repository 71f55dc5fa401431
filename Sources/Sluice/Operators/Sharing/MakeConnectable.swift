extension Publishers {
    /// A connectable publisher over any publisher: subscribers attach first, and the upstream
    /// is subscribed once, on ``connect()``, for all of them.
    ///
    /// It is a ``Publishers/Multicast`` through a `PassthroughSubject` made with it: a subscriber receives
    /// what the upstream sends after it subscribed, within its own demand; the upstream is asked for
    /// `.unlimited` once some subscriber has asked for anything.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        @usableFromInline let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a connectable publisher of `upstream`.
        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream, keepingSubject: ()) { PassthroughSubject() }
        }

        /// Subscribes `subscriber` to the shared subject.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        /// Subscribes the upstream; each call subscribes it again, as
        /// ``Publishers/Multicast/connect()`` does.
        public func connect() -> any Cancellable {
            inner.connect()
        }
    }
}

extension Publisher where Failure == Never {
    /// Wraps this publisher so that it starts only on ``ConnectablePublisher/connect()``,
    /// once, for every subscriber attached by then.
    ///
    /// <!-- snippet: MakeConnectableTwoSubscribers -->
    /// ```swift
    /// let connectable = [1, 2].publisher.makeConnectable()
    /// let first = connectable.sink { received.append("first \($0)") }
    /// let second = connectable.sink { received.append("second \($0)") }   // nothing yet
    /// let connection = connectable.connect()   // both receive 1 and 2
    /// ```
    @inlinable
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}
