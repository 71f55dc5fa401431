extension Publishers {
    /// A publisher that pairs the elements of two upstream publishers in order: its first
    /// element is both upstreams' first elements, its second both seconds, and so on.
    ///
    /// Every upstream is asked for as many elements as the downstream asks for, so that neither runs ahead of
    /// what the downstream can take; an element waits, in order, until each other upstream has sent the one
    /// it pairs with. The publisher finishes as soon as an upstream has finished and all its elements are
    /// paired (no pair can be made any more), cancelling the others; the first failure cancels the others and
    /// fails it. Pairs reach the downstream one at a time, on the thread of whichever upstream (or request)
    /// completes them.
    public struct Zip<A, B>: Publisher where A: Publisher, B: Publisher, A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure

        public let a: A
        public let b: B

        /// Creates a publisher that zips the given publishers.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes `subscriber`, then `a`, then `b`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let tuples = TupleSubscription<TupleRow2<QueueColumn<A.Output>, QueueColumn<B.Output>>, S>
                .start(subscriber, row: .init())
            a.subscribe(tuples.side(0, for: A.Output.self))
            b.subscribe(tuples.side(1, for: B.Output.self))
        }
    }

    /// A publisher that zips three upstream publishers; see ``Publishers/Zip``.
    public struct Zip3<A, B, C>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C

        /// Creates a publisher that zips the given publishers.
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
                TupleRow3<QueueColumn<A.Output>, QueueColumn<B.Output>, QueueColumn<C.Output>>, S
            >.start(subscriber, row: .init())
            a.subscribe(tuples.side(0, for: A.Output.self))
            b.subscribe(tuples.side(1, for: B.Output.self))
            c.subscribe(tuples.side(2, for: C.Output.self))
        }
    }

    /// A publisher that zips four upstream publishers; see ``Publishers/Zip``.
    public struct Zip4<A, B, C, D>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher,
        A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C
        public let d: D

        /// Creates a publisher that zips the given publishers.
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
                TupleRow4<QueueColumn<A.Output>, QueueColumn<B.Output>, QueueColumn<C.Output>, QueueColumn<D.Output>>, S
            >.start(subscriber, row: .init())
            a.subscribe(tuples.side(0, for: A.Output.self))
            b.subscribe(tuples.side(1, for: B.Output.self))
            c.subscribe(tuples.side(2, for: C.Output.self))
            d.subscribe(tuples.side(3, for: D.Output.self))
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publisher {
    /// Pairs this publisher's elements with `other`'s, in order; see ``Publishers/Zip``.
    @inlinable
    public func zip<P>(_ other: P) -> Publishers.Zip<Self, P> where P: Publisher, Failure == P.Failure {
        Publishers.Zip(self, other)
    }

    /// Pairs this publisher's elements with `other`'s, in order, and publishes what `transform`
    /// makes of each pair. `transform` runs on the thread that delivers the pair.
    @inlinable
    public func zip<P, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where P: Publisher, Failure == P.Failure {
        Publishers.Map(
            upstream: Publishers.Zip(self, other),
            transform: { transform($0.0, $0.1) },
            isolation: isolation
        )
    }

    /// Combines this publisher's elements with two others', in order; see ``Publishers/Zip``.
    @inlinable
    public func zip<P, Q>(_ publisher1: P, _ publisher2: Q) -> Publishers.Zip3<Self, P, Q>
    where P: Publisher, Q: Publisher, Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Combines this publisher's elements with two others', in order, and publishes what
    /// `transform` makes of each triple.
    @inlinable
    public func zip<P, Q, T>(
        _ publisher1: P,
        _ publisher2: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher, Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Map(
            upstream: Publishers.Zip3(self, publisher1, publisher2),
            transform: { transform($0.0, $0.1, $0.2) },
            isolation: isolation
        )
    }

    /// Combines this publisher's elements with three others', in order; see ``Publishers/Zip``.
    @inlinable
    public func zip<P, Q, R>(_ publisher1: P, _ publisher2: Q, _ publisher3: R) -> Publishers.Zip4<Self, P, Q, R>
    where P: Publisher, Q: Publisher, R: Publisher,
        Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Combines this publisher's elements with three others', in order, and publishes what
    /// `transform` makes of each quadruple.
    @inlinable
    public func zip<P, Q, R, T>(
        _ publisher1: P,
        _ publisher2: Q,
        _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where P: Publisher, Q: Publisher, R: Publisher,
        Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Map(
            upstream: Publishers.Zip4(self, publisher1, publisher2, publisher3),
            transform: { transform($0.0, $0.1, $0.2, $0.3) },
            isolation: isolation
        )
    }
}
