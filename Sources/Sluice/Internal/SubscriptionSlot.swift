/// Where a one-shot subscriber keeps its upstream subscription, under the subscriber's lock.
///
/// ```text
/// awaiting ──attach──▶ subscribed ──end──▶ terminated
///     └──────────────end───────────────────▲
/// ```
@usableFromInline
package enum SubscriptionSlot {
    case awaiting
    case subscribed(any Subscription)
    case terminated

    /// Takes the first subscription; returns `false` for any later one (the caller cancels it).
    @usableFromInline
    package mutating func attach(_ subscription: any Subscription) -> Bool {
        guard case .awaiting = self else { return false }
        self = .subscribed(subscription)
        return true
    }

    /// The subscription the ended slot held, if any, for the caller to cancel (or drop) outside the lock.
    @usableFromInline
    package struct Ended {
        @usableFromInline package let upstream: (any Subscription)?
        @inlinable init(upstream: (any Subscription)?) { self.upstream = upstream }
    }

    /// Moves to `terminated`; `nil` if it already was, so that `slot.end()?.upstream?.cancel()` cancels once.
    @usableFromInline
    package mutating func end() -> Ended? {
        switch self {
        case .terminated:
            return nil
        case .awaiting:
            self = .terminated
            return Ended(upstream: nil)
        case .subscribed(let subscription):
            self = .terminated
            return Ended(upstream: subscription)
        }
    }

    /// The state as Combine's mirrors name it (`status`).
    @usableFromInline
    var status: String {
        switch self {
        case .awaiting: "awaitingSubscription"
        case .subscribed(let subscription): "subscribed(\(subscription))"
        case .terminated: "terminal"
        }
    }

    /// Whether a subscription is held (a test that copies no existential, for hot paths).
    @inlinable
    var isSubscribed: Bool {
        if case .subscribed = self { return true }
        return false
    }

    /// Whether no subscription has come yet (and the slot was not ended before one did).
    @inlinable
    var isAwaiting: Bool {
        if case .awaiting = self { return true }
        return false
    }

    @inlinable
    package var current: (any Subscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }
}
