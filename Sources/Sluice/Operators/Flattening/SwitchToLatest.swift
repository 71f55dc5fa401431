extension Publishers {
    /// A publisher that republishes the elements of the latest publisher its upstream sent,
    /// cancelling the one before.
    ///
    /// Demand: the upstream is asked for `.unlimited` publishers. Each inner publisher is asked,
    /// when it subscribes, for the downstream's demand not yet met (so demand left over from
    /// the previous inner carries over); then every request of the downstream, and the demand it
    /// returns from each element, passes to the current inner.
    ///
    /// Threads: a new publisher from the upstream cancels the current inner before the new one
    /// is subscribed; an element the cancelled inner still sends (from another thread, say) is
    /// never delivered. Elements reach the downstream one at a time.
    ///
    /// Completion: it finishes once the upstream has finished and the current inner (if any)
    /// has too. A failure of the upstream or of the current inner cancels the other and fails
    /// the stream. Cancelling cancels both.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where Upstream.Output == P, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Creates a publisher that republishes the elements of the latest of `upstream`'s publishers.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(subscription)
        }
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes the elements of the latest publisher this one sent, cancelling the previous
    /// one; see ``Publishers/SwitchToLatest`` for demand and completion.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Republishes the elements of the latest publisher this one (which never fails) sent; the
    /// stream takes the inner publishers' failure type. See ``Publishers/SwitchToLatest``.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: setFailureType(to: Output.Failure.self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Republishes the elements of the latest publisher this one sent; neither side fails. See
    /// ``Publishers/SwitchToLatest``.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes the elements of the latest publisher this one sent; the inner publishers,
    /// which never fail, take this publisher's failure type. See ``Publishers/SwitchToLatest``.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<
        Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    > {
        Publishers.SwitchToLatest(upstream: map { $0.setFailureType(to: Failure.self) })
    }
}
