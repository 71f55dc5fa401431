extension Publishers {
    /// A publisher that connects its connectable upstream when its first subscriber arrives,
    /// and cancels that connection when the last one cancels.
    ///
    /// The count: a subscriber counts from its subscribe until it cancels its subscription (the first
    /// `cancel()`; later ones change nothing). The first subscriber is subscribed to the upstream, then
    /// `connect()` is called; when the count drops back to zero the connection is cancelled, and the next
    /// subscriber connects again. A completion does not end a subscriber's count, as in Combine: after the
    /// upstream completes, the connection stays until every subscriber has cancelled.
    ///
    /// Threads: subscribers may arrive and cancel on any threads at once; `connect()` and the
    /// connection's `cancel()` are called with no lock held, one connection at a time being
    /// kept. Subscribers arriving while `connect()` runs share that connection. Demand and
    /// values pass straight between the upstream and each subscriber.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, AutoconnectParent {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The connectable publisher this one connects.
        public final let upstream: Upstream

        @usableFromInline let state = Locked(AutoconnectState())

        /// Creates a publisher that connects `upstream` while it has subscribers.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the upstream, then connects it if this is the first
        /// subscriber since the last disconnect.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let connects = state.withLock { $0.join() }
            upstream.receive(
                subscriber: AutoconnectSubscription.Side(parent: self, state: state, downstream: subscriber)
            )
            if connects { connect() }
        }

        /// Connects the upstream, and cancels the connection at once if every subscriber has
        /// cancelled meanwhile (then connects again if more came while that cancel ran).
        @inlinable
        func connect() {
            while true {
                let connection = upstream.connect()
                guard let unwanted = state.withLock({ $0.connected(connection) }) else { return }
                unwanted.cancel()
                guard state.withLock({ $0.disconnected() }) else { return }
            }
        }

        /// The last subscriber left: cancels `connection`, then connects again if subscribers
        /// came while that cancel ran.
        @usableFromInline
        func disconnect(_ connection: any Cancellable) {
            connection.cancel()
            if state.withLock({ $0.disconnected() }) { connect() }
        }
    }
}

/// What an ``AutoconnectSubscription`` calls when its subscriber was the last to leave.
@usableFromInline
protocol AutoconnectParent: AnyObject {
    /// Cancels `connection`, then connects again if subscribers came meanwhile.
    func disconnect(_ connection: any Cancellable)
}

extension ConnectablePublisher {
    /// Connects this publisher when the first subscriber arrives, and disconnects it when the
    /// last one cancels; see ``Publishers/Autoconnect``.
    ///
    /// <!-- snippet: AutoconnectFirstSubscriber -->
    /// ```swift
    /// let shared = [1, 2, 3].publisher.makeConnectable().autoconnect()
    /// let cancellable = shared.sink { received.append($0) }   // connects: received == [1, 2, 3]
    /// ```
    @inlinable
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
