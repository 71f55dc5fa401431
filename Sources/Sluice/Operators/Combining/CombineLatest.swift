extension Publishers {
    /// A publisher that, once each of two upstream publishers has sent an element, publishes
    /// the latest element of each whenever either sends one.
    ///
    /// Every upstream is asked for as many elements as the downstream asks for. As in Combine,
    /// an element that arrives while the downstream has no demand is only remembered as its
    /// upstream's latest: no pair is published for it, then or on a later request. The
    /// publisher finishes when every upstream has finished (so never, if one never does), and
    /// the first failure cancels the others and fails it. Pairs reach the downstream one at a
    /// time, on the thread of whichever upstream sends, and none is lost to a re-entrant send.
    ///
    /// <!-- snippet: CombineLatestForm -->
    /// ```swift
    /// // The form is valid whenever both fields are, re-checked on every keystroke.
    /// let canSubmit = name.combineLatest(email) { !$0.isEmpty && $1.contains("@") }
    /// ```
    public struct CombineLatest<A, B>: Publisher where A: Publisher, B: Publisher, A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure

        public let a: A
        public let b: B

        /// Creates a publisher that combines the latest elements of the given publishers.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes `subscriber`, then `a`, then `b`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let tuples = TupleSubscription<TupleRow2<LatestColumn<A.Output>, LatestColumn<B.Output>>, S>
                .start(subscriber, row: .init())
            a.subscribe(tuples.side(0, for: A.Output.self))
            b.subscribe(tuples.side(1, for: B.Output.self))
        }
    }

    /// A publisher that combines the latest elements of three upstream publishers; see ``Publishers/CombineLatest``.
    public struct CombineLatest3<A, B, C>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C

        /// Creates a publisher that combines the latest elements of the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let tuples = TupleSubscription<
                TupleRow3<LatestColumn<A.Output>, LatestColumn<B.Output>, LatestColumn<C.Output>>, S
            >.start(subscriber, row: .init())
            a.subscribe(tuples.side(0, for: A.Output.self))
            b.subscribe(tuples.side(1, for: B.Output.self))
            c.subscribe(tuples.side(2, for: C.Output.self))
        }
    }

    /// A publisher that combines the latest elements of four upstream publishers; see ``Publishers/CombineLatest``.
    public struct CombineLatest4<A, B, C, D>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher,
        A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C
        public let d: D

        /// Creates a publisher that combines the latest elements of the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let tuples = TupleSubscription<
                TupleRow4<
                    LatestColumn<A.Output>, LatestColumn<B.Output>, LatestColumn<C.Output>, LatestColumn<D.Output>
                >,
                S
            >.start(subscriber, row: .init())
            a.subscribe(tuples.side(0, for: A.Output.self))
            b.subscribe(tuples.side(1, for: B.Output.self))
            c.subscribe(tuples.side(2, for: C.Output.self))
            d.subscribe(tuples.side(3, for: D.Output.self))
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publisher {
    /// Publishes this publisher's and `other`'s latest elements whenever either sends one; see
    /// ``Publishers/CombineLatest``.
    @inlinable
    public func combineLatest<P>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P: Publisher, Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Publishes what `transform` makes of this publisher's and `other`'s latest elements
    /// whenever either sends one. `transform` runs on the thread that delivers the pair.
    @inlinable
    public func combineLatest<P, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P: Publisher, Failure == P.Failure {
        Publishers.Map(
            upstream: Publishers.CombineLatest(self, other),
            transform: { transform($0.0, $0.1) },
            isolation: isolation
        )
    }

    /// Publishes this publisher's and two others' latest elements whenever one sends; see ``Publishers/CombineLatest``.
    @inlinable
    public func combineLatest<P, Q>(_ publisher1: P, _ publisher2: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where P: Publisher, Q: Publisher, Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Publishes what `transform` makes of this publisher's and two others' latest elements
    /// whenever one sends.
    @inlinable
    public func combineLatest<P, Q, T>(
        _ publisher1: P,
        _ publisher2: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher, Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Map(
            upstream: Publishers.CombineLatest3(self, publisher1, publisher2),
            transform: { transform($0.0, $0.1, $0.2) },
            isolation: isolation
        )
    }

    /// Publishes this publisher's and three others' latest elements whenever one sends; see
    /// ``Publishers/CombineLatest``.
    @inlinable
    public func combineLatest<P, Q, R>(
        _ publisher1: P,
        _ publisher2: Q,
        _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where P: Publisher, Q: Publisher, R: Publisher,
        Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Publishes what `transform` makes of this publisher's and three others' latest elements
    /// whenever one sends.
    @inlinable
    public func combineLatest<P, Q, R, T>(
        _ publisher1: P,
        _ publisher2: Q,
        _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P: Publisher, Q: Publisher, R: Publisher,
        Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Map(
            upstream: Publishers.CombineLatest4(self, publisher1, publisher2, publisher3),
            transform: { transform($0.0, $0.1, $0.2, $0.3) },
            isolation: isolation
        )
    }
}
