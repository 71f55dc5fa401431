/// Where a one-shot subscriber keeps its upstream subscription: the three states every
/// subscriber goes through, in order, under the subscriber's lock.
///
/// ```
/// awaiting ──attach──▶ subscribed ──terminate──▶ terminated
///     └────────────────terminate───────────────────▲
/// ```
@usableFromInline
enum SubscriptionSlot {
    case awaiting
    case subscribed(any Subscription)
    case terminated

    /// Takes the first subscription; returns `false` for any later one (the caller cancels it).
    @usableFromInline
    mutating func attach(_ subscription: any Subscription) -> Bool {
        guard case .awaiting = self else { return false }
        self = .subscribed(subscription)
        return true
    }

    /// Moves to `terminated`. Returns `nil` if it already was; otherwise the subscription
    /// that was held, if any, for the caller to cancel (or drop) outside the lock.
    @usableFromInline
    mutating func terminate() -> (any Subscription)?? {
        switch self {
        case .terminated:
            return nil
        case .awaiting:
            self = .terminated
            return .some(nil)
        case .subscribed(let subscription):
            self = .terminated
            return .some(subscription)
        }
    }

    /// The subscription, while subscribed.
    @usableFromInline
    var current: (any Subscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }
}
