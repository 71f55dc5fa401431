import Sluice

/// The error tests fail publishers with; `code` tells failures apart.
struct TestError: Error, Equatable {
    var code = 0
}

/// A publisher that keeps the one subscriber it is given, so that a test can send it any
/// signal in any order.
final class HeldSubscriber<Output, Failure: Error>: @unchecked Sendable {
    // Safe: used by one test on one thread.
    var subscriber: AnySubscriber<Output, Failure>!
    var raw: Any?

    /// Not erased: an `AnyPublisher` would hand `Holding` an `AnySubscriber` as `raw`.
    var publisher: some Publisher<Output, Failure> {
        Holding(owner: self)
    }

    private struct Holding: Publisher {
        let owner: HeldSubscriber
        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            owner.subscriber = AnySubscriber(subscriber)
            owner.raw = subscriber
        }
    }
}
