import Sluice

/// A subscription handed to other threads in tests.
///
/// Safe because `request(_:)` and `cancel()` are thread-safe by contract (design rules 4, 5);
/// nothing else is called on it.
struct SendableSubscriptionBox: @unchecked Sendable {
    let base: any Subscription
}

/// The error tests fail publishers with; `code` tells failures apart.
struct TestError: Error, Equatable {
    var code = 0
}
