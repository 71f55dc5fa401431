/// A type that can receive values from a publisher.
///
/// A subscriber first receives a ``Subscription`` (exactly once), then requests values through it; it
/// receives at most as many values as it has requested, then at most one completion.
///
/// <!-- snippet: SubscriberFirstThree -->
/// ```swift
/// final class FirstThree: Subscriber {
///     private(set) var received: [Int] = []
///     private(set) var finished = false
///     func receive(subscription: any Subscription) { subscription.request(.max(3)) }
///     func receive(_ input: Int) -> Subscribers.Demand { received.append(input); return .none }
///     func receive(completion: Subscribers.Completion<Never>) { finished = true }
/// }
/// let firstThree = FirstThree()
/// (1...5).publisher.subscribe(firstThree)
/// // received == [1, 2, 3], and no completion: it asked for three values of five
/// ```
///
/// A subscriber is called on whatever thread its publisher signals from (Combine's contract), so its
/// conformance cannot be isolated to an actor: `SendableMetatype` makes
/// `@MainActor final class Model: @MainActor Subscriber` a compile error instead of a model called off the
/// main actor. To receive on an actor, use `sink` (made there, it runs there) or `receive(on:)` the
/// actor's scheduler before a subscriber whose methods are `nonisolated`.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible, SendableMetatype {
    /// The kind of values this subscriber receives.
    associatedtype Input

    /// The kind of errors this subscriber might receive; `Never` if it cannot receive one.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed to the publisher and may request items.
    func receive(subscription: any Subscription)

    /// Tells the subscriber that the publisher has produced an element; returns the additional demand,
    /// added to the demand already requested.
    func receive(_ input: Input) -> Subscribers.Demand

    /// Tells the subscriber that the publisher has completed, normally or with an error; nothing follows.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Tells the subscriber that a publisher of `Void` elements has produced an element.
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}

/// A namespace for types that act as subscribers, such as ``Subscribers/Sink``.
public enum Subscribers {}
