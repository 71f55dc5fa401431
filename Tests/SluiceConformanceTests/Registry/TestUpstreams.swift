import Sluice
import SluiceTesting

/// A publisher that hands whoever subscribes two subscriptions, one from each of two
/// controllable publishers: the misuse Reactive Streams rule 2.5 guards against.
final class TwiceSubscribing<Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked Sendable: both controllable publishers keep their state behind a lock.
    typealias Output = Int
    let first = ControllablePublisher<Int, Failure>()
    let second = ControllablePublisher<Int, Failure>()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        first.receive(subscriber: subscriber)
        second.receive(subscriber: subscriber)
    }
}

/// A publisher that keeps only a weak reference to the one subscription it makes, so a test
/// sees when the subscriber lets go of it. The subscription sends nothing until `complete()`.
final class WeakUpstream<Failure: Error>: Publisher, Sendable {
    typealias Output = Int

    /// The subscription; it holds its subscriber until it completes.
    final class Link: Subscription, Sendable {
        private let downstream: Locked<Unchecked<AnySubscriber<Int, Failure>>?>
        init(_ downstream: AnySubscriber<Int, Failure>) { self.downstream = Locked(Unchecked(downstream)) }
        func request(_ demand: Subscribers.Demand) {}
        func cancel() {}
        func complete() {
            downstream.withLock { $0.take() }?.value.receive(completion: .finished)
        }
    }

    private struct WeakLink: @unchecked Sendable {
        // @unchecked Sendable: only read and written under the publisher's lock.
        weak var link: Link?
    }

    private let made = Locked(WeakLink())

    /// Whether the subscription is still alive (someone holds it).
    var isSubscribed: Bool { made.withLock { $0.link != nil } }

    /// Completes the subscription, if alive.
    func complete() { made.withLock { $0.link }?.complete() }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        let link = Link(AnySubscriber(subscriber))
        made.withLock { $0.link = link }
        subscriber.receive(subscription: link)
    }
}
