extension Publishers {
    /// A publisher that republishes its upstream's elements until another publisher emits,
    /// then finishes, cancelling the upstream.
    ///
    /// The other publisher is subscribed first and asked for one element; if it completes without one, the
    /// upstream's elements keep coming (its failure is ignored). The subscriber gets its subscription when
    /// the upstream's comes, as in Combine (an element of the other publisher before that finishes the
    /// subscriber, which then gets none). Demand passes to the upstream as requested (`request(.none)`
    /// included, as in Combine). The completion that the other publisher's element causes never overlaps an
    /// element being delivered, whichever thread each arrives on.
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

        /// Subscribes `other`, then the upstream; `subscriber` gets its subscription with the upstream's.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            PrefixUntilOutputSubscription.start(subscriber, upstream: upstream, trigger: other)
        }
    }

    /// A publisher that ignores its upstream's elements until another publisher emits, then republishes them.
    ///
    /// As in Combine, an element dropped before that uses up its demand (no more is asked for
    /// in its place; an upstream that sends one with no demand left traps, rule 2), and demand
    /// passes to the upstream as requested (`request(.none)` included). The other publisher is
    /// asked for one element; once it has arrived, the other publisher is let go of (not
    /// cancelled). If it completes without one, this publisher completes the same way,
    /// cancelling the upstream. The subscriber is let go of at its completion (rule 4).
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
            DropUntilOutputSubscription.start(subscriber, upstream: upstream, other: other)
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
