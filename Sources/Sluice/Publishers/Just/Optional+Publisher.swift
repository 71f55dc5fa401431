extension Optional {
    /// A publisher that publishes an optional value to each subscriber exactly once, if the
    /// optional has a value; otherwise it finishes at once.
    ///
    /// ```swift
    /// let cancellable = Optional(3).publisher.sink { print($0) }   // prints 3
    /// ```
    public var publisher: Optional<Wrapped>.Publisher {
        Publisher(self)
    }

    /// A publisher that publishes an optional value to each subscriber exactly once, if the
    /// optional has a value.
    ///
    /// With `nil` it sends ``Subscriptions/empty`` and `.finished` immediately; with a value it
    /// delivers it and `.finished` on the first positive demand.
    ///
    /// ```swift
    /// let none = Optional<Int>.Publisher(nil)   // finishes without a value
    /// ```
    public struct Publisher: Sluice.Publisher {
        /// The kind of value published by this publisher: the wrapped type.
        ///
        /// ```swift
        /// let publisher: some Publisher<Int, Never> = Optional(1).publisher   // Output is Int
        /// ```
        public typealias Output = Wrapped

        /// This publisher never fails.
        ///
        /// ```swift
        /// Optional<Int>.Publisher.Failure.self   // Never.self
        /// ```
        public typealias Failure = Never

        /// The output to deliver to each subscriber, if any.
        ///
        /// ```swift
        /// Optional(1).publisher.output   // Optional(1)
        /// ```
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if
        /// the optional doesn't have a value.
        ///
        /// ```swift
        /// let publisher = Optional<Int>.Publisher(5)
        /// ```
        @inlinable
        public init(_ output: Output?) {
            self.output = output
        }

        /// Delivers the value (if any) on demand, then `.finished`.
        ///
        /// ```swift
        /// Optional(3).publisher.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))   // prints 3
        /// ```
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
