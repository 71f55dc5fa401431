extension Optional {
    /// A publisher that publishes an optional value to each subscriber exactly once, if the
    /// optional has a value; otherwise it finishes at once.
    public var publisher: Optional<Wrapped>.Publisher {
        Publisher(self)
    }

    /// A publisher that publishes an optional value to each subscriber exactly once, if the
    /// optional has a value.
    ///
    /// With `nil` it sends ``Subscriptions/empty`` and `.finished` immediately; with a value it
    /// delivers it and `.finished` on the first positive demand.
    public struct Publisher: Sluice.Publisher {
        /// The kind of value published by this publisher: the wrapped type.
        public typealias Output = Wrapped

        /// This publisher never fails.
        public typealias Failure = Never

        /// The output to deliver to each subscriber, if any.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if it has none.
        @inlinable
        public init(_ output: Output?) {
            self.output = output
        }

        /// Delivers the value (if any) on demand, then `.finished`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                subscriber.receive(
                    subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Optional"))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
