extension Publishers {
    /// A publisher that publishes the elements of a sequence, one per unit of demand, and then finishes.
    ///
    /// The sequence is iterated lazily, as demand arrives; it is never copied into an array. Each subscriber
    /// iterates the sequence afresh. When the last element has been delivered, the publisher finishes without
    /// waiting for more demand; an empty sequence finishes at once.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The kind of values published: the sequence's elements.
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for a sequence of elements.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Gives the subscriber a subscription that delivers the elements on demand (inlinable, so that
        /// the per-element loop is specialised for the client's subscriber).
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            let subscription = SequenceSubscription<S, Elements>(
                downstream: subscriber, sequence: sequence, iterator: iterator, first: first,
                // Formed here, in the client's specialised context, so that the loop it calls
                // is specialised too (calls through `any Subscription` are not).
                emitter: { $0.emit($1) })
            subscriber.receive(subscription: subscription)
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Sequence {
    /// A publisher that publishes the elements of this sequence on demand, then finishes.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}
