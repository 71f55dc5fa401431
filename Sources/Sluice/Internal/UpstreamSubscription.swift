/// An upstream subscription kept in Sendable state (a bridge's storage, a test recorder).
///
/// Safe to mark Sendable: `Subscription.request(_:)` and `cancel()` are thread-safe by
/// contract (design rules 4 and 5), and nothing else is called on it. The one such box in
/// the package; `package` so that SluiceTesting uses it too.
@usableFromInline
package struct UpstreamSubscription: @unchecked Sendable {
    @usableFromInline package let base: any Subscription
    @inlinable package init(_ base: any Subscription) { self.base = base }
}
