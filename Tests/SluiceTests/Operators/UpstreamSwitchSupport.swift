import Sluice
import SluiceTesting

/// A publisher that keeps each subscriber waiting, without a subscription, until the test
/// calls ``release()``, which subscribes them to ``inner``: it opens the gap between two
/// upstreams of catch, retry and concatenate, where requests and a cancel have no upstream to
/// reach yet; and, before ``release()``, the gap before an operator's own upstream
/// subscription, where a test can send it what no well-behaved publisher sends.
final class LatePublisher<Output, Failure: Error>: Publisher {
    /// A waiting subscriber, erased and as it was given (an operator's subscriber is often
    /// its subscription too).
    typealias Waiting = (erased: AnySubscriber<Output, Failure>, raw: Any)

    let inner = ControllablePublisher<Output, Failure>()
    private let waiting = Locked<[Waiting]>([])

    /// How many subscribers wait for ``release()``.
    var waitingCount: Int { waiting.withLock { $0.count } }

    /// The subscribers waiting for ``release()``, in order of subscription.
    var waitingSubscribers: [Waiting] { waiting.withLock { $0 } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        waiting.withLock { $0.append((AnySubscriber(subscriber), subscriber)) }
    }

    /// Subscribes the waiting subscribers to ``inner``.
    func release() {
        let subscribers = waiting.withLock { state -> [Waiting] in
            defer { state = [] }
            return state
        }
        for subscriber in subscribers { inner.subscribe(subscriber.erased) }
    }
}

/// A publisher whose subscription fails inside the first `request(_:)` (synchronously, on
/// the requesting thread) for its first `failures` subscriptions, and after that sends
/// `value` and finishes there: the upstream that would make a recursive retry grow the
/// stack once per attempt.
final class FailingOnRequest<Failure: Error>: Publisher {
    typealias Output = Int
    private let failures: Int
    private let failure: Failure
    private let value: Int
    private let made = Locked(0)

    init(failures: Int, failure: Failure, then value: Int) {
        self.failures = failures
        self.failure = failure
        self.value = value
    }

    /// How many subscribers it has had.
    var subscriptionCount: Int { made.withLock { $0 } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        let count = made.withLock { $0 += 1; return $0 }
        let fails = count <= failures
        subscriber.receive(subscription: Link(
            AnySubscriber(subscriber), value: fails ? nil : value, ending: fails ? .failure(failure) : .finished))
    }

    private final class Link: Subscription {
        private let downstream: Locked<AnySubscriber<Int, Failure>?>
        private let value: Int?
        private let ending: Subscribers.Completion<Failure>

        init(_ downstream: AnySubscriber<Int, Failure>, value: Int?, ending: Subscribers.Completion<Failure>) {
            self.downstream = Locked(downstream)
            self.value = value
            self.ending = ending
        }

        func request(_ demand: Subscribers.Demand) {
            guard let subscriber = downstream.withLock({ state -> AnySubscriber<Int, Failure>? in
                defer { state = nil }
                return state
            }) else { return }
            if let value { _ = subscriber.receive(value) }
            subscriber.receive(completion: ending)
        }

        func cancel() { downstream.withLock { $0 = nil } }
    }
}
