/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// `Just` never fails: it delivers its value when the subscriber requests at least one element, then finishes.
public struct Just<Output>: Publisher {
    /// The kind of errors this publisher might publish: `Just` cannot fail.
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Gives the subscriber a subscription that delivers ``output`` and `.finished` on demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(
            subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Just"))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}
