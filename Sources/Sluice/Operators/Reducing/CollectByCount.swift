extension Publishers {
    /// A publisher that sends its upstream's elements in arrays of `count`, and the rest, if
    /// any, in a shorter array when the upstream finishes.
    ///
    /// Demand counts arrays: the downstream's demand of `n` asks the upstream for `n * count`
    /// elements (`.unlimited` when that overflows). On a failure, the elements collected
    /// since the last array are dropped and the failure is passed on. `count` should be at
    /// least 1. `request(.none)` traps (rule 2), as Combine's does.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one collects.
        public let upstream: Upstream

        /// The number of elements in each array but the last.
        public let count: Int

        /// Creates a publisher collecting the elements of `upstream` in arrays of `count`.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes `subscriber`; each subscription collects from an empty array.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UpstreamRelay(
                name: "CollectByCount", downstream: subscriber, demandScale: count, trapsOnZeroDemand: true)
            let count = count
            relay.connect { token in
                upstream.subscribe(CollectByCountSubscriber<S, Upstream.Output>(relay: relay, token: token, count: count))
            }
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

/// The upstream's subscriber for ``Publishers/CollectByCount``: it fills an array and hands
/// it to the relay when full, or at the upstream's `.finished`.
///
/// The array is touched only by the upstream's signals, which are serial (rule 3), so it
/// needs no lock.
final class CollectByCountSubscriber<Downstream: Subscriber, Element>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == [Element] {
    typealias Input = Element
    typealias Failure = Downstream.Failure

    private let relay: UpstreamRelay<Downstream>
    private let token: Int
    private let count: Int
    private var collected: [Element] = []

    init(relay: UpstreamRelay<Downstream>, token: Int, count: Int) {
        self.relay = relay
        self.token = token
        self.count = count
    }

    func receive(subscription: any Subscription) { relay.receive(subscription: subscription, token: token) }

    func receive(_ input: Element) -> Subscribers.Demand {
        collected.append(input)
        guard collected.count >= count else { return .none }
        defer { collected = [] }
        return relay.receive(collected, token: token)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard relay.upstreamCompleted(token: token) else { return }
        let rest = collected
        collected = []
        if case .finished = completion, !rest.isEmpty {
            relay.finish(sending: rest)
        } else {
            relay.complete(completion)
        }
    }

    var description: String { relay.description }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
}

extension Publisher {
    /// Collects elements in arrays of `count` and sends each when full; the rest, if any,
    /// goes in a shorter array when the upstream finishes.
    ///
    /// A downstream demand of `n` arrays asks the upstream for `n * count` elements. A
    /// failure drops the elements not yet sent.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}
