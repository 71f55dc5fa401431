/// A type that can receive values from a publisher.
///
/// A subscriber first receives a ``Subscription`` (exactly once), then requests values
/// through it; it receives at most as many values as it has requested, then at most one
/// completion.
///
/// ```swift
/// final class Printer: Subscriber {
///     func receive(subscription: any Subscription) { subscription.request(.max(3)) }
///     func receive(_ input: Int) -> Subscribers.Demand { print(input); return .none }
///     func receive(completion: Subscribers.Completion<Never>) { print("done") }
/// }
/// (1...5).publisher.subscribe(Printer())   // prints 1, 2, 3
/// ```
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input

    /// The kind of errors this subscriber might receive; `Never` if it cannot receive one.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed to the publisher and may
    /// request items.
    ///
    /// ```swift
    /// func receive(subscription: any Subscription) { subscription.request(.unlimited) }
    /// ```
    func receive(subscription: any Subscription)

    /// Tells the subscriber that the publisher has produced an element.
    ///
    /// Returns the additional demand, added to the demand already requested.
    ///
    /// ```swift
    /// func receive(_ input: Int) -> Subscribers.Demand { sum += input; return .max(1) }
    /// ```
    func receive(_ input: Input) -> Subscribers.Demand

    /// Tells the subscriber that the publisher has completed publishing, normally or with
    /// an error. Nothing is delivered after it.
    ///
    /// ```swift
    /// func receive(completion: Subscribers.Completion<Never>) { print("finished") }
    /// ```
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Tells the subscriber that a publisher of `Void` elements has produced an element.
    ///
    /// ```swift
    /// _ = subscriber.receive()
    /// ```
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}

/// A namespace for types that act as subscribers, such as ``Subscribers/Sink``.
///
/// ```swift
/// let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { print($0) })
/// ```
public enum Subscribers {}
