/// A publisher that immediately terminates with the specified error.
///
/// ```swift
/// struct Oops: Error {}
/// let cancellable = Fail<Int, Oops>(error: Oops())
///     .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })   // failure(Oops())
/// ```
public struct Fail<Output, Failure: Error>: Publisher {
    /// The failure to send when terminating the publisher.
    ///
    /// ```swift
    /// Fail<Int, Oops>(error: Oops()).error
    /// ```
    public let error: Failure

    /// Creates a publisher that immediately terminates with the specified failure.
    ///
    /// ```swift
    /// let fail = Fail<Int, Oops>(error: Oops())
    /// ```
    @inlinable
    public init(error: Failure) {
        self.error = error
    }

    /// Creates a publisher with the given output type that immediately terminates with the
    /// specified failure.
    ///
    /// ```swift
    /// let fail = Fail(outputType: Int.self, failure: Oops())
    /// ```
    @inlinable
    public init(outputType: Output.Type, failure: Failure) {
        self.error = failure
    }

    /// Sends ``Subscriptions/empty`` and then the failure.
    ///
    /// ```swift
    /// Fail<Int, Oops>(error: Oops()).subscribe(Subscribers.Sink(receiveCompletion: { print($0) }, receiveValue: { _ in }))   // prints failure(Oops())
    /// ```
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {
    /// Two `Fail` publishers are equal when their errors are.
    ///
    /// ```swift
    /// Fail<Int, Code>(error: .a) == Fail<Int, Code>(error: .a)   // true
    /// ```
    @inlinable
    public static func == (lhs: Fail, rhs: Fail) -> Bool { lhs.error == rhs.error }
}

extension Fail: Sendable where Failure: Sendable {}
