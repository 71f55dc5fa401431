extension Publishers {
    /// A publisher that merges any number of upstream publishers of one type; demand and
    /// completion are ``Publishers/Merge``'s. With no upstream it finishes at once.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publishers merged, in the order they are subscribed.
        public let publishers: [Upstream]

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher that merges the publishers of a sequence.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeSubscription.start(
                subscriber,
                subscribing: publishers.map { publisher in { publisher.receive(subscriber: $0) } }
            )
        }

        /// A merge of these publishers and `other`.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Republishes the elements of this publisher and `other`, of the same type, as they
    /// arrive; see ``Publishers/Merge`` for demand and completion.
    @inlinable
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}
