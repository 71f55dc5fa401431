/// An upstream subscription kept in Sendable state (a bridge's storage, a test recorder). Unchecked:
/// `request(_:)` and `cancel()` are thread-safe by contract (design rules 4 and 5); nothing else is called.
@usableFromInline
package struct UpstreamSubscription: @unchecked Sendable {
    @usableFromInline package let base: any Subscription
    @inlinable package init(_ base: any Subscription) { self.base = base }
}
