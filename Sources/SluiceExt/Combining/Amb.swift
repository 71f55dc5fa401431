import Sluice

extension Publishers {
    /// A publisher that mirrors whichever of two publishers signals first (CombineExt's
    /// `Amb`, the "ambiguous" operator of Rx).
    ///
    /// - Race: both publishers are subscribed, `first` then `second`, after the downstream got
    ///   its subscription. The first value or completion from either decides the race; the
    ///   other publisher is cancelled at once and nothing more of it reaches the downstream.
    ///   From then on the downstream gets the winner's signals only, its completion included.
    /// - Demand: nothing is requested until the downstream requests. Its first request asks
    ///   each publisher for one value and is kept; when a publisher wins with a value, the
    ///   rest of the kept demand (what the downstream asked for, minus that value) is
    ///   requested from it, and later requests go to it unchanged. A completion needs no
    ///   demand, so a publisher that completes can win before anything is requested.
    ///   (CombineExt asks each publisher for one value at subscription and then forwards the
    ///   whole kept demand on top of it, buffering the extra value; see Migration.md.)
    /// - Threads: the two may signal on different threads; one lock decides the race, and the
    ///   loser's signals are dropped, so the downstream's signals never overlap. No lock is
    ///   held while the downstream or either subscription is called.
    /// - Cancel: cancels both publishers, or the winner alone once decided, and lets go of the
    ///   downstream.
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
    /// The subscriber for contender `index`.
    func contender(_ index: Int) -> Contender { Contender(parent: self, index: index) }
}

extension Publisher {
    /// Mirrors whichever of this publisher and `other` signals first, value or completion; the
    /// other is cancelled. See `Publishers.Amb` for demand, threads and cancellation.
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

    /// Mirrors whichever of this publisher and `others` signals first; all the rest are
    /// cancelled. One race over all of them, subscribed in order, with the demand, threads and
    /// cancellation of `Publishers.Amb`. With no others, this publisher's signals.
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
    /// Mirrors whichever of the publishers signals first, value or completion; all the rest
    /// are cancelled (CombineExt's `amb()` on a collection). One race over all of them,
    /// subscribed in the collection's order, with the demand, threads and cancellation of
    /// `Publishers.Amb`. An empty collection finishes at once, as CombineExt's does.
    public func amb() -> AnyPublisher<Element.Output, Element.Failure> {
        guard !isEmpty else { return Empty().eraseToAnyPublisher() }
        return AmbMany(contenders: map { $0.eraseToAnyPublisher() }).eraseToAnyPublisher()
    }
}
