/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// `Just` never fails. It delivers its value when the subscriber requests at least one
/// element, then finishes at once.
///
/// ```swift
/// let cancellable = Just(42).sink { print($0) }   // prints 42
/// ```
public struct Just<Output>: Publisher {
    /// The kind of errors this publisher might publish: `Just` cannot fail.
    ///
    /// ```swift
    /// let publisher: some Publisher<Int, Never> = Just(1)   // Failure is Never
    /// ```
    public typealias Failure = Never

    /// The one element that the publisher emits.
    ///
    /// ```swift
    /// Just(1).output   // 1
    /// ```
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    ///
    /// ```swift
    /// let just = Just("hello")
    /// ```
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Gives the subscriber a subscription that delivers ``output`` and `.finished` on demand.
    ///
    /// ```swift
    /// Just(1).subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))   // prints 1
    /// ```
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(
            subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Just"))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}
