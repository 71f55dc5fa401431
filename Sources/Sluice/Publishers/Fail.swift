/// A publisher that immediately terminates with the specified error.
public struct Fail<Output, Failure: Error>: Publisher {
    /// The failure to send when terminating the publisher.
    public let error: Failure

    /// Creates a publisher that immediately terminates with the specified failure.
    @inlinable
    public init(error: Failure) {
        self.error = error
    }

    /// Creates a publisher with the given output type that immediately terminates with the specified failure.
    @inlinable
    public init(outputType: Output.Type, failure: Failure) {
        self.error = failure
    }

    /// Sends ``Subscriptions/empty`` and then the failure.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {
    /// Two `Fail` publishers are equal when their errors are.
    @inlinable
    public static func == (lhs: Fail, rhs: Fail) -> Bool { lhs.error == rhs.error }
}

extension Fail: Sendable where Failure: Sendable {}
