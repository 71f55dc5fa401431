import Sluice

extension Publishers {
    /// A publisher that mirrors whichever of two publishers signals first (CombineExt's `Amb`, Rx's "ambiguous").
    ///
    /// - Race: both publishers are subscribed, `first` then `second`, after the downstream got its subscription.
    ///   The first value or completion from either decides the race; the other is cancelled at once and nothing
    ///   more of it reaches the downstream, which from then on gets the winner's signals only.
    /// - Demand: nothing is requested until the downstream requests. Its first request asks each publisher for
    ///   one value and is kept; the winner is then asked for the rest, and later requests go to it unchanged. A
    ///   publisher that completes can win before anything is requested. (CombineExt asks each for one value at
    ///   subscription and forwards the whole demand on top of it; see Migration.md.)
    /// - Threads: the two may signal on different threads; one lock decides the race and the loser's signals
    ///   are dropped, so the downstream's never overlap. No lock is held while calling out.
    /// - Cancel: cancels both publishers, or the winner alone once decided, and lets go of the downstream.
    public struct Amb<First: Publisher, Second: Publisher>: Publisher
    where First.Output == Second.Output, First.Failure == Second.Failure {
        public typealias Output = First.Output
        public typealias Failure = First.Failure

        /// The publisher subscribed first.
        public let first: First
        /// The publisher subscribed second.
        public let second: Second

        /// Creates the race; prefer `amb(_:)`.
        public init(first: First, second: Second) {
            self.first = first
            self.second = second
        }

        /// Gives the downstream its subscription, then subscribes `first` and `second`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let race = AmbSubscription<Output, Failure, S>(downstream: subscriber, count: 2)
            subscriber.receive(subscription: race)
            first.subscribe(race.contender(0))
            second.subscribe(race.contender(1))
        }
    }
}

/// The race of `amb(with:)` and `amb()`: any number of publishers, subscribed in order.
struct AmbMany<Output, Failure: Error>: Publisher {
    let contenders: [AnyPublisher<Output, Failure>]

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let race = AmbSubscription<Output, Failure, S>(downstream: subscriber, count: contenders.count)
        subscriber.receive(subscription: race)
        for (index, contender) in contenders.enumerated() { contender.subscribe(race.contender(index)) }
    }
}

extension AmbSubscription {
    func contender(_ index: Int) -> IndexedSubscriber<AmbSubscription> { IndexedSubscriber(parent: self, index: index) }
}

extension Publisher {
    /// Mirrors whichever of this publisher and `other` signals first, value or completion; the other is
    /// cancelled. See `Publishers.Amb` for demand, threads and cancellation.
    ///
    /// <!-- snippet: AmbFirstToSignal -->
    /// ```swift
    /// let cache = PassthroughSubject<String, Never>()
    /// let network = PassthroughSubject<String, Never>()
    /// let recorder = RecordingSubscriber<String, Never>()
    /// cache.amb(network).subscribe(recorder)
    /// network.send("fresh")   // network wins: cache is cancelled
    /// cache.send("stale")
    /// network.send("fresher")
    /// #expect(recorder.values == ["fresh", "fresher"])
    /// ```
    public func amb<Other: Publisher>(_ other: Other) -> Publishers.Amb<Self, Other>
    where Other.Output == Output, Other.Failure == Failure {
        Publishers.Amb(first: self, second: other)
    }

    /// Mirrors whichever of this publisher and `others` signals first; all the rest are cancelled. One race,
    /// subscribed in order, as `Publishers.Amb`. With no others, this publisher's signals.
    public func amb<Others: Collection>(with others: Others) -> AnyPublisher<Output, Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        AmbMany(contenders: [eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }).eraseToAnyPublisher()
    }

    /// `amb(with:)` of the publishers listed (CombineExt's variadic form).
    public func amb<Other: Publisher>(with others: Other...) -> AnyPublisher<Output, Failure>
    where Other.Output == Output, Other.Failure == Failure {
        amb(with: others)
    }
}

extension Collection where Element: Publisher {
    /// Mirrors whichever of the publishers signals first, value or completion; all the rest are cancelled
    /// (CombineExt's `amb()` on a collection). One race, subscribed in the collection's order, as
    /// `Publishers.Amb`. An empty collection finishes at once, as CombineExt's does.
    public func amb() -> AnyPublisher<Element.Output, Element.Failure> {
        guard !isEmpty else { return Empty().eraseToAnyPublisher() }
        return AmbMany(contenders: map { $0.eraseToAnyPublisher() }).eraseToAnyPublisher()
    }
}
