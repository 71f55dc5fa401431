@_spi(Internals) import Sluice
import SluiceTesting

/// A publisher that keeps each subscriber waiting, without a subscription, until the test
/// calls ``release()``, which subscribes them to ``inner``: it opens the gap between two
/// upstreams of catch, retry and concatenate, where requests and a cancel have no upstream to
/// reach yet.
final class LatePublisher<Output, Failure: Error>: Publisher {
    let inner = ControllablePublisher<Output, Failure>()
    private let waiting = Locked<[AnySubscriber<Output, Failure>]>([])

    /// How many subscribers wait for ``release()``.
    var waitingCount: Int { waiting.withLock { $0.count } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        waiting.withLock { $0.append(AnySubscriber(subscriber)) }
    }

    /// Subscribes the waiting subscribers to ``inner``.
    func release() {
        let subscribers = waiting.withLock { state -> [AnySubscriber<Output, Failure>] in
            defer { state = [] }
            return state
        }
        for subscriber in subscribers { inner.subscribe(subscriber) }
    }
}
