extension Publishers {
    /// A publisher that republishes the elements of two upstream publishers as they arrive, interleaved, and
    /// finishes when every one has finished; the first failure cancels the others and fails it.
    ///
    /// Demand: while the downstream's demand is limited, each upstream is asked for one element
    /// at a time; an element that arrives with no demand waits (one per upstream) until the
    /// downstream asks, and is delivered before the merge finishes. Elements reach the
    /// downstream one at a time, on the thread of whichever upstream (or request) delivers.
    public struct Merge<A, B>: Publisher
    where A: Publisher, B: Publisher, A.Output == B.Output, A.Failure == B.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        public let a: A
        public let b: B

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeSubscription.start(subscriber, subscribing: [
                { a.receive(subscriber: $0) }, { b.receive(subscriber: $0) },
            ])
        }

        /// Merges this merge's publishers and another into one ``Publishers/Merge3``, as Combine does.
        @inlinable
        public func merge<P>(with p: P) -> Publishers.Merge3<A, B, P>
        where P: Publisher, P.Output == Output, P.Failure == Failure {
            Publishers.Merge3(a, b, p)
        }

        /// Merges this merge's publishers and 2 more into one ``Publishers/Merge4``, as Combine does.
        @inlinable
        public func merge<P, Z>(with p: P, _ z: Z) -> Publishers.Merge4<A, B, P, Z>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure {
            Publishers.Merge4(a, b, p, z)
        }

        /// Merges this merge's publishers and 3 more into one ``Publishers/Merge5``, as Combine does.
        @inlinable
        public func merge<P, Z, Y>(with p: P, _ z: Z, _ y: Y) -> Publishers.Merge5<A, B, P, Z, Y>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure {
            Publishers.Merge5(a, b, p, z, y)
        }

        /// Merges this merge's publishers and 4 more into one ``Publishers/Merge6``, as Combine does.
        @inlinable
        public func merge<P, Z, Y, X>(with p: P, _ z: Z, _ y: Y, _ x: X) -> Publishers.Merge6<A, B, P, Z, Y, X>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure,
              X: Publisher, X.Output == Output, X.Failure == Failure {
            Publishers.Merge6(a, b, p, z, y, x)
        }

        /// Merges this merge's publishers and 5 more into one ``Publishers/Merge7``, as Combine does.
        @inlinable
        public func merge<P, Z, Y, X, W>(
            with p: P,
            _ z: Z,
            _ y: Y,
            _ x: X,
            _ w: W
        ) -> Publishers.Merge7<A, B, P, Z, Y, X, W>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure,
              X: Publisher, X.Output == Output, X.Failure == Failure,
              W: Publisher, W.Output == Output, W.Failure == Failure {
            Publishers.Merge7(a, b, p, z, y, x, w)
        }

        /// Merges this merge's publishers and 6 more into one ``Publishers/Merge8``, as Combine does.
        @inlinable
        public func merge<P, Z, Y, X, W, V>(
            with p: P,
            _ z: Z,
            _ y: Y,
            _ x: X,
            _ w: W,
            _ v: V
        ) -> Publishers.Merge8<A, B, P, Z, Y, X, W, V>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure,
              X: Publisher, X.Output == Output, X.Failure == Failure,
              W: Publisher, W.Output == Output, W.Failure == Failure,
              V: Publisher, V.Output == Output, V.Failure == Failure {
            Publishers.Merge8(a, b, p, z, y, x, w, v)
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

extension Publisher {
    /// Republishes the elements of this publisher and `other` as they arrive, interleaved; see
    /// ``Publishers/Merge`` for demand and completion.
    @inlinable
    public func merge<B>(with other: B) -> Publishers.Merge<Self, B>
    where B: Publisher, B.Output == Output, B.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// Merges this publisher with 2 others; see ``Publishers/Merge``.
    @inlinable
    public func merge<B, C>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B: Publisher, B.Output == Output, B.Failure == Failure,
          C: Publisher, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }

    /// Merges this publisher with 3 others; see ``Publishers/Merge``.
    @inlinable
    public func merge<B, C, D>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D>
    where B: Publisher, B.Output == Output, B.Failure == Failure,
          C: Publisher, C.Output == Output, C.Failure == Failure,
          D: Publisher, D.Output == Output, D.Failure == Failure {
        Publishers.Merge4(self, b, c, d)
    }

    /// Merges this publisher with 4 others; see ``Publishers/Merge``.
    @inlinable
    public func merge<B, C, D, E>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E>
    where B: Publisher, B.Output == Output, B.Failure == Failure,
          C: Publisher, C.Output == Output, C.Failure == Failure,
          D: Publisher, D.Output == Output, D.Failure == Failure,
          E: Publisher, E.Output == Output, E.Failure == Failure {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Merges this publisher with 5 others; see ``Publishers/Merge``.
    @inlinable
    public func merge<B, C, D, E, F>(
        with b: B,
        _ c: C,
        _ d: D,
        _ e: E,
        _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where B: Publisher, B.Output == Output, B.Failure == Failure,
          C: Publisher, C.Output == Output, C.Failure == Failure,
          D: Publisher, D.Output == Output, D.Failure == Failure,
          E: Publisher, E.Output == Output, E.Failure == Failure,
          F: Publisher, F.Output == Output, F.Failure == Failure {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Merges this publisher with 6 others; see ``Publishers/Merge``.
    @inlinable
    public func merge<B, C, D, E, F, G>(
        with b: B,
        _ c: C,
        _ d: D,
        _ e: E,
        _ f: F,
        _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where B: Publisher, B.Output == Output, B.Failure == Failure,
          C: Publisher, C.Output == Output, C.Failure == Failure,
          D: Publisher, D.Output == Output, D.Failure == Failure,
          E: Publisher, E.Output == Output, E.Failure == Failure,
          F: Publisher, F.Output == Output, F.Failure == Failure,
          G: Publisher, G.Output == Output, G.Failure == Failure {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Merges this publisher with 7 others; see ``Publishers/Merge``.
    @inlinable
    public func merge<B, C, D, E, F, G, H>(
        with b: B,
        _ c: C,
        _ d: D,
        _ e: E,
        _ f: F,
        _ g: G,
        _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where B: Publisher, B.Output == Output, B.Failure == Failure,
          C: Publisher, C.Output == Output, C.Failure == Failure,
          D: Publisher, D.Output == Output, D.Failure == Failure,
          E: Publisher, E.Output == Output, E.Failure == Failure,
          F: Publisher, F.Output == Output, F.Failure == Failure,
          G: Publisher, G.Output == Output, G.Failure == Failure,
          H: Publisher, H.Output == Output, H.Failure == Failure {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}
