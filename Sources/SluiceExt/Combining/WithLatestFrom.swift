import Sluice

extension Publishers {
    /// A publisher that pairs each value of its upstream with the latest value of another publisher, through
    /// a result selector (CombineExt's `withLatestFrom`).
    ///
    /// - The other publisher is subscribed first, with `.unlimited` demand, and only its latest value is kept.
    ///   An upstream value that comes before the other has one is dropped (and one more is requested in its place).
    /// - Demand: the upstream sees the downstream's demand, one for one.
    /// - Ending: the upstream's completion ends the stream and cancels the other. The other finishing ends nothing;
    ///   the other failing fails the stream and cancels the upstream (CombineExt ignores it; see Migration.md).
    /// - Threads: the two publishers may send on different threads; the downstream still gets one signal at a
    ///   time, and no lock is held while it (or the selector) is called.
    /// - Where the selector runs: as with `map`, on `isolation` when it was made in actor-isolated code (the
    ///   caller's actor by default), else on the upstream's thread.
    public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Failure = Upstream.Failure
        /// Makes a downstream value from an upstream value and the other's latest value.
        public typealias ResultSelector = (Upstream.Output, Other.Output) -> Output

        /// The publisher whose values are paired.
        public let upstream: Upstream
        /// The publisher whose latest value each upstream value is paired with.
        public let other: Other
        /// Makes each downstream value.
        public let resultSelector: ResultSelector
        /// The actor `resultSelector` runs on; nil: on the upstream's thread.
        public let isolation: (any Actor)?

        /// Creates the publisher; prefer `withLatestFrom(_:resultSelector:isolation:)`.
        public init(
            upstream: Upstream, other: Other, resultSelector: @escaping ResultSelector,
            isolation: (any Actor)? = #isolation
        ) {
            self.upstream = upstream
            self.other = other
            self.resultSelector = resultSelector
            self.isolation = isolation
        }

        /// Subscribes the other publisher, then the upstream; the downstream gets its subscription before either.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let select = resultSelector
            LatestPairs(upstream: upstream, other: other)
                .map({ select($0.0, $0.1) }, isolation: isolation)
                .receive(subscriber: subscriber)
        }
    }
}

@usableFromInline
struct LatestPairs<Upstream: Publisher, Other: Publisher>: Publisher where Upstream.Failure == Other.Failure {
    @usableFromInline typealias Output = (Upstream.Output, Other.Output)
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let upstream: Upstream
    @usableFromInline let other: Other

    @inlinable
    init(upstream: Upstream, other: Other) {
        self.upstream = upstream
        self.other = other
    }

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = WithLatestFromSubscription<Upstream.Output, Other.Output, Failure, S>(downstream: subscriber)
        subscriber.receive(subscription: subscription)
        other.subscribe(WithLatestFromSubscription.OtherSide(parent: subscription))
        upstream.subscribe(subscription)
    }
}

extension Publisher {
    /// Pairs each value of this publisher with the latest value of `other`, through `resultSelector`; see
    /// `Publishers.WithLatestFrom` for demand, ending and threads.
    ///
    /// <!-- snippet: WithLatestFromSelector -->
    /// ```swift
    /// let taps = PassthroughSubject<Void, Never>()
    /// let text = PassthroughSubject<String, Never>()
    /// var sent: [String] = []
    /// let cancellable = taps.withLatestFrom(text) { _, text in text }.sink { sent.append($0) }
    /// taps.send()          // dropped: no text yet
    /// text.send("hello")
    /// taps.send()          // sent == ["hello"]
    /// ```
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector, isolation: isolation)
    }

    /// For each value of this publisher, the latest value of `other`; values before `other` has one are dropped.
    public func withLatestFrom<Other: Publisher>(_ other: Other) -> Publishers.WithLatestFrom<Self, Other, Other.Output>
    where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: { $1 }, isolation: nil)
    }

    /// Each value of this publisher with the latest values of `other` and `other1`, once both have one:
    /// `other.combineLatest(other1)` is the publisher whose latest value is taken.
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher>(
        _ other: Other, _ other1: Other1
    ) -> AnyPublisher<(Output, Other.Output, Other1.Output), Failure>
    where Other.Failure == Failure, Other1.Failure == Failure {
        withLatestFrom(other.combineLatest(other1), resultSelector: { ($0, $1.0, $1.1) }, isolation: nil)
            .eraseToAnyPublisher()
    }

    /// `resultSelector` applied to each value and the latest values of `other` and `other1`, once both have one.
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Result>(
        _ other: Other, _ other1: Other1,
        resultSelector: @escaping (Output, (Other.Output, Other1.Output)) -> Result,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.WithLatestFrom<Self, Publishers.CombineLatest<Other, Other1>, Result>
    where Other.Failure == Failure, Other1.Failure == Failure {
        withLatestFrom(other.combineLatest(other1), resultSelector: resultSelector, isolation: isolation)
    }

    /// Each value of this publisher with the latest values of `other`, `other1` and `other2`, once all three have one.
    @inlinable
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher>(
        _ other: Other, _ other1: Other1, _ other2: Other2
    ) -> AnyPublisher<(Output, Other.Output, Other1.Output, Other2.Output), Failure>
    where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure {
        withLatestFrom(other.combineLatest(other1, other2), resultSelector: { ($0, $1.0, $1.1, $1.2) }, isolation: nil)
            .eraseToAnyPublisher()
    }

    /// `resultSelector` applied to each value and the latest of `other`, `other1` and `other2`, once all have one.
    public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher, Result>(
        _ other: Other, _ other1: Other1, _ other2: Other2,
        resultSelector: @escaping (Output, (Other.Output, Other1.Output, Other2.Output)) -> Result,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.WithLatestFrom<Self, Publishers.CombineLatest3<Other, Other1, Other2>, Result>
    where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure {
        withLatestFrom(other.combineLatest(other1, other2), resultSelector: resultSelector, isolation: isolation)
    }
}
