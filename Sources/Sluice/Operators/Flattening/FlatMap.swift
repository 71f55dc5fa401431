extension Publishers {
    /// A publisher that turns each element of its upstream into a publisher and republishes the
    /// elements of all of them as they arrive.
    ///
    /// Demand, as in Combine: the upstream is asked for `maxPublishers` elements when it subscribes, and for
    /// one more each time an inner publisher finishes (never more while `maxPublishers` is `.unlimited`).
    /// Each inner publisher is asked for one element at a time while the downstream's demand is limited, and
    /// for `.unlimited` from the downstream's first unlimited request on. An element that arrives with no
    /// demand waits, in order of arrival, until the downstream asks; its publisher is asked for the next once
    /// it has gone out.
    ///
    /// Threads: inner publishers may send on any thread; their elements reach the downstream one at a time,
    /// none lost or repeated, on the thread of whichever publisher (or request) delivers.
    ///
    /// Cost: each inner publisher is subscribed, as in Combine, except a `Just` (with or
    /// without its failure type set) that arrives while the downstream has demand and nothing
    /// waits: its value is delivered without an inner subscription, so `flatMap { Just($0) }`
    /// allocates nothing per element. The downstream gets the same values and completion, and
    /// the upstream the same demand (returned from `receive(_:)` instead of requested).
    ///
    /// Completion: it finishes once the upstream and every inner publisher have finished and no element
    /// waits. The first failure, of the upstream or of an inner publisher, cancels all the others, drops the
    /// elements still waiting for demand and fails the stream. (Combine leaves the upstream subscribed,
    /// ignoring it, when an inner publisher fails; this one cancels it, so that an upstream that never ends
    /// is let go.) Cancelling cancels the upstream and every inner publisher. An upstream that completes
    /// again from inside the cancel of an inner that its failure caused traps, where Combine's deadlocks.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements are transformed into publishers.
        public let upstream: Upstream

        /// How many inner publishers may be subscribed at once (the upstream's initial demand).
        public let maxPublishers: Subscribers.Demand

        /// Makes a publisher of each element of the upstream.
        public let transform: (Upstream.Output) -> NewPublisher

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher that flattens the publishers `transform` makes of `upstream`'s elements, with
        /// at most `maxPublishers` of them subscribed at once (`.none` asks the upstream for `.max(0)`, as
        /// Combine's does: an upstream that traps on a request of `.none`, such as a subject, traps).
        @inlinable
        public init(
            upstream: Upstream,
            maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FlatMapSubscription<Upstream.Output, NewPublisher, S>(
                downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            subscriber.receive(subscription: subscription)
            upstream.receive(subscriber: subscription, isolation: isolation)
        }
    }
}

extension Publisher {
    /// Transforms each element into a publisher of the same failure type and republishes the
    /// elements of every such publisher, with at most `maxPublishers` of them subscribed at once.
    ///
    /// See ``Publishers/FlatMap`` for demand, threads and completion: an inner publisher
    /// finishing does not finish the stream; any failure fails it.
    @inlinable
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, P.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform, isolation: isolation)
    }

    /// Transforms each element into a publisher that never fails and republishes their elements; the inner
    /// publishers take this publisher's failure type. See ``Publishers/FlatMap``.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(
            upstream: self,
            maxPublishers: maxPublishers,
            transform: { transform($0).setFailureType(to: Failure.self) },
            isolation: isolation
        )
    }
}

extension Publisher where Failure == Never {
    /// Transforms each element into a publisher and republishes their elements; this publisher,
    /// which never fails, takes the inner publishers' failure type. See ``Publishers/FlatMap``.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(
            upstream: setFailureType(to: P.Failure.self),
            maxPublishers: maxPublishers,
            transform: transform,
            isolation: isolation
        )
    }

    /// Transforms each element into a publisher and republishes their elements; neither side
    /// fails. See ``Publishers/FlatMap``.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform, isolation: isolation)
    }
}
