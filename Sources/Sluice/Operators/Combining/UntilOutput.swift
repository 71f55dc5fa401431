extension Publishers {
    /// A publisher that republishes its upstream's elements until another publisher emits,
    /// then finishes, cancelling the upstream.
    ///
    /// The other publisher is asked for one element; if it completes without one, the
    /// upstream's elements keep coming (its failure is ignored). Demand passes to the upstream
    /// as requested (`request(.none)` included, as in Combine). The completion that the other publisher's element causes never overlaps
    /// an element being delivered, whichever thread each arrives on.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one republishes elements of.
        public let upstream: Upstream

        /// The publisher whose first element ends the stream.
        public let other: Other

        /// Creates a publisher that republishes `upstream` until `other` emits.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes `subscriber`, then `other`, then the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UntilOutputSubscription.start(subscriber, upstream: upstream, trigger: other, dropping: false)
        }
    }

    /// A publisher that ignores its upstream's elements until another publisher emits, then
    /// republishes them.
    ///
    /// As in Combine, an element dropped before that uses up its demand (no more is asked for
    /// in its place), and demand passes to the upstream as requested (`request(.none)`
    /// included). The other publisher is asked for one element; if it completes without
    /// one, this publisher completes the same way, cancelling the upstream. Once its element
    /// has arrived it is cancelled (Combine only lets go of it), so that it frees what it
    /// holds, such as a subject's hold on this subscription.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one republishes elements of.
        public let upstream: Upstream

        /// The publisher whose first element lets elements through.
        public let other: Other

        /// Creates a publisher that drops `upstream`'s elements until `other` emits.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes `subscriber`, then `other`, then the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UntilOutputSubscription.start(subscriber, upstream: upstream, trigger: other, dropping: true)
        }
    }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Republishes elements until `publisher` emits one, then finishes.
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }

    /// Ignores elements until `publisher` emits one, then republishes them.
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where P.Failure == Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}
