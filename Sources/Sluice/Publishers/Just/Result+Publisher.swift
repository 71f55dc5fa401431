extension Result {
    /// A publisher that publishes this result to each subscriber exactly once: the success
    /// value followed by `.finished`, or the failure.
    ///
    /// ```swift
    /// let cancellable = Result<Int, Never>.success(1).publisher.sink { print($0) }   // prints 1
    /// ```
    public var publisher: Result<Success, Failure>.Publisher {
        Publisher(self)
    }

    /// A publisher that publishes an output to each subscriber exactly once then finishes, or
    /// fails immediately without producing any elements.
    ///
    /// A success is delivered on the first positive demand, followed by `.finished`; a failure
    /// is sent right after ``Subscriptions/empty``.
    ///
    /// ```swift
    /// let publisher = Result<Int, Oops>.Publisher(Oops())   // fails at once
    /// ```
    public struct Publisher: Sluice.Publisher {
        /// The kind of value published by this publisher.
        ///
        /// ```swift
        /// let publisher: some Publisher<Int, Oops> = Result<Int, Oops>.success(1).publisher   // Output is Int
        /// ```
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        ///
        /// ```swift
        /// Result<Int, Never>.Publisher(1).result   // .success(1)
        /// ```
        public let result: Result<Success, Failure>

        /// Creates a publisher that delivers the specified result.
        ///
        /// ```swift
        /// let publisher = Result<Int, Oops>.Publisher(.success(1))
        /// ```
        @inlinable
        public init(_ result: Result<Success, Failure>) {
            self.result = result
        }

        /// Creates a publisher that sends the specified output to all subscribers and then
        /// finishes.
        ///
        /// ```swift
        /// let publisher = Result<Int, Oops>.Publisher(1)
        /// ```
        @inlinable
        public init(_ output: Output) {
            self.init(.success(output))
        }

        /// Creates a publisher that immediately sends the specified failure to all subscribers.
        ///
        /// ```swift
        /// let publisher = Result<Int, Oops>.Publisher(Oops())
        /// ```
        @inlinable
        public init(_ failure: Failure) {
            self.init(.failure(failure))
        }

        /// Delivers the success on demand then `.finished`, or the failure at once.
        ///
        /// ```swift
        /// Result<Int, Oops>.failure(Oops()).publisher.subscribe(Subscribers.Sink(receiveCompletion: { print($0) }, receiveValue: { _ in }))   // prints failure(Oops())
        /// ```
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let output):
                subscriber.receive(
                    subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Once"))
            case .failure(let failure):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(failure))
            }
        }
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}
