/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are thread-safe: ``request(_:)`` and ``Cancellable/cancel()`` may be called from any
/// thread, also from inside `Subscriber.receive(_:)`. Cancelling, idempotent, frees its resources.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber; two `.max(2)` allow four.
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {}

extension Subscriptions {
    /// The empty subscription, for a publisher that completes at once: requests and cancellations do nothing.
    public static var empty: any Subscription { EmptySubscription.shared }
}

final class EmptySubscription: Subscription, Sendable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    static let shared = EmptySubscription()
    let combineIdentifier = CombineIdentifier()
    private init() {}
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
    var description: String { "Empty" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
}
