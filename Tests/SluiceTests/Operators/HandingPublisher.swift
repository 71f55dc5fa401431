import Sluice

/// A publisher that keeps the subscriber it is given, so that a test can send it what no
/// well-behaved publisher sends: a second subscription, a signal before the subscription, a
/// subscription late.
final class HandingPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // Safe for these tests: each uses it from one thread only.
    var subscriber: AnySubscriber<Output, Failure>?
    /// The subscriber itself, unerased (an operator's subscriber may be its subscription too).
    var raw: Any?
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
        raw = subscriber
    }
}

/// A subscription that records what it is asked.
final class LoggingSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    // Safe for these tests: each uses it from one thread only.
    var requests: [Subscribers.Demand] = []
    var cancelCount = 0
    var description: String { "LoggingSubscription" }
    func request(_ demand: Subscribers.Demand) { requests.append(demand) }
    func cancel() { cancelCount += 1 }
}
