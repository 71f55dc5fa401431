extension Result {
    /// A publisher that publishes this result to each subscriber exactly once: the success
    /// value followed by `.finished`, or the failure.
    public var publisher: Result<Success, Failure>.Publisher {
        Publisher(self)
    }

    /// A publisher that publishes an output to each subscriber exactly once then finishes, or
    /// fails immediately without producing any elements.
    ///
    /// A success is delivered on the first positive demand, followed by `.finished`; a failure
    /// is sent right after ``Subscriptions/empty``.
    public struct Publisher: Sluice.Publisher {
        /// The kind of value published by this publisher.
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Success, Failure>

        /// Creates a publisher that delivers the specified result.
        @inlinable
        public init(_ result: Result<Success, Failure>) {
            self.result = result
        }

        /// Creates a publisher that sends the specified output to all subscribers and then finishes.
        @inlinable
        public init(_ output: Output) {
            self.init(.success(output))
        }

        /// Creates a publisher that immediately sends the specified failure to all subscribers.
        @inlinable
        public init(_ failure: Failure) {
            self.init(.failure(failure))
        }

        /// Delivers the success on demand then `.finished`, or the failure at once.
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
