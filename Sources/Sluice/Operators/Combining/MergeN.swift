// Publishers.Merge3 to Merge8: Publishers.Merge (Merge.swift) over three to eight upstreams, with
// Combine's types; each subscribes through the same MergeSubscription.
extension Publishers {
    /// A publisher that merges three upstream publishers; see ``Publishers/Merge``.
    public struct Merge3<A, B, C>: Publisher
    where A: Publisher,
          B: Publisher, A.Output == B.Output, A.Failure == B.Failure,
          C: Publisher, A.Output == C.Output, A.Failure == C.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeSubscription.start(subscriber, subscribing: [
                { a.receive(subscriber: $0) }, { b.receive(subscriber: $0) }, { c.receive(subscriber: $0) },
            ])
        }

        /// Merges this merge's publishers and another into one ``Publishers/Merge4``, as Combine does.
        @inlinable
        public func merge<P>(with p: P) -> Publishers.Merge4<A, B, C, P>
        where P: Publisher, P.Output == Output, P.Failure == Failure {
            Publishers.Merge4(a, b, c, p)
        }

        /// Merges this merge's publishers and 2 more into one ``Publishers/Merge5``, as Combine does.
        @inlinable
        public func merge<P, Z>(with p: P, _ z: Z) -> Publishers.Merge5<A, B, C, P, Z>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure {
            Publishers.Merge5(a, b, c, p, z)
        }

        /// Merges this merge's publishers and 3 more into one ``Publishers/Merge6``, as Combine does.
        @inlinable
        public func merge<P, Z, Y>(with p: P, _ z: Z, _ y: Y) -> Publishers.Merge6<A, B, C, P, Z, Y>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure {
            Publishers.Merge6(a, b, c, p, z, y)
        }

        /// Merges this merge's publishers and 4 more into one ``Publishers/Merge7``, as Combine does.
        @inlinable
        public func merge<P, Z, Y, X>(with p: P, _ z: Z, _ y: Y, _ x: X) -> Publishers.Merge7<A, B, C, P, Z, Y, X>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure,
              X: Publisher, X.Output == Output, X.Failure == Failure {
            Publishers.Merge7(a, b, c, p, z, y, x)
        }

        /// Merges this merge's publishers and 5 more into one ``Publishers/Merge8``, as Combine does.
        @inlinable
        public func merge<P, Z, Y, X, W>(
            with p: P,
            _ z: Z,
            _ y: Y,
            _ x: X,
            _ w: W
        ) -> Publishers.Merge8<A, B, C, P, Z, Y, X, W>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure,
              X: Publisher, X.Output == Output, X.Failure == Failure,
              W: Publisher, W.Output == Output, W.Failure == Failure {
            Publishers.Merge8(a, b, c, p, z, y, x, w)
        }
    }

    /// A publisher that merges four upstream publishers; see ``Publishers/Merge``.
    public struct Merge4<A, B, C, D>: Publisher
    where A: Publisher,
          B: Publisher, A.Output == B.Output, A.Failure == B.Failure,
          C: Publisher, A.Output == C.Output, A.Failure == C.Failure,
          D: Publisher, A.Output == D.Output, A.Failure == D.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C
        public let d: D

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeSubscription.start(subscriber, subscribing: [
                { a.receive(subscriber: $0) }, { b.receive(subscriber: $0) }, { c.receive(subscriber: $0) },
                { d.receive(subscriber: $0) },
            ])
        }

        /// Merges this merge's publishers and another into one ``Publishers/Merge5``, as Combine does.
        @inlinable
        public func merge<P>(with p: P) -> Publishers.Merge5<A, B, C, D, P>
        where P: Publisher, P.Output == Output, P.Failure == Failure {
            Publishers.Merge5(a, b, c, d, p)
        }

        /// Merges this merge's publishers and 2 more into one ``Publishers/Merge6``, as Combine does.
        @inlinable
        public func merge<P, Z>(with p: P, _ z: Z) -> Publishers.Merge6<A, B, C, D, P, Z>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure {
            Publishers.Merge6(a, b, c, d, p, z)
        }

        /// Merges this merge's publishers and 3 more into one ``Publishers/Merge7``, as Combine does.
        @inlinable
        public func merge<P, Z, Y>(with p: P, _ z: Z, _ y: Y) -> Publishers.Merge7<A, B, C, D, P, Z, Y>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure {
            Publishers.Merge7(a, b, c, d, p, z, y)
        }

        /// Merges this merge's publishers and 4 more into one ``Publishers/Merge8``, as Combine does.
        @inlinable
        public func merge<P, Z, Y, X>(with p: P, _ z: Z, _ y: Y, _ x: X) -> Publishers.Merge8<A, B, C, D, P, Z, Y, X>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure,
              X: Publisher, X.Output == Output, X.Failure == Failure {
            Publishers.Merge8(a, b, c, d, p, z, y, x)
        }
    }

    /// A publisher that merges five upstream publishers; see ``Publishers/Merge``.
    public struct Merge5<A, B, C, D, E>: Publisher
    where A: Publisher,
          B: Publisher, A.Output == B.Output, A.Failure == B.Failure,
          C: Publisher, A.Output == C.Output, A.Failure == C.Failure,
          D: Publisher, A.Output == D.Output, A.Failure == D.Failure,
          E: Publisher, A.Output == E.Output, A.Failure == E.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeSubscription.start(subscriber, subscribing: [
                { a.receive(subscriber: $0) }, { b.receive(subscriber: $0) }, { c.receive(subscriber: $0) },
                { d.receive(subscriber: $0) }, { e.receive(subscriber: $0) },
            ])
        }

        /// Merges this merge's publishers and another into one ``Publishers/Merge6``, as Combine does.
        @inlinable
        public func merge<P>(with p: P) -> Publishers.Merge6<A, B, C, D, E, P>
        where P: Publisher, P.Output == Output, P.Failure == Failure {
            Publishers.Merge6(a, b, c, d, e, p)
        }

        /// Merges this merge's publishers and 2 more into one ``Publishers/Merge7``, as Combine does.
        @inlinable
        public func merge<P, Z>(with p: P, _ z: Z) -> Publishers.Merge7<A, B, C, D, E, P, Z>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure {
            Publishers.Merge7(a, b, c, d, e, p, z)
        }

        /// Merges this merge's publishers and 3 more into one ``Publishers/Merge8``, as Combine does.
        @inlinable
        public func merge<P, Z, Y>(with p: P, _ z: Z, _ y: Y) -> Publishers.Merge8<A, B, C, D, E, P, Z, Y>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure,
              Y: Publisher, Y.Output == Output, Y.Failure == Failure {
            Publishers.Merge8(a, b, c, d, e, p, z, y)
        }
    }

    /// A publisher that merges six upstream publishers; see ``Publishers/Merge``.
    public struct Merge6<A, B, C, D, E, F>: Publisher
    where A: Publisher,
          B: Publisher, A.Output == B.Output, A.Failure == B.Failure,
          C: Publisher, A.Output == C.Output, A.Failure == C.Failure,
          D: Publisher, A.Output == D.Output, A.Failure == D.Failure,
          E: Publisher, A.Output == E.Output, A.Failure == E.Failure,
          F: Publisher, A.Output == F.Output, A.Failure == F.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeSubscription.start(subscriber, subscribing: [
                { a.receive(subscriber: $0) }, { b.receive(subscriber: $0) }, { c.receive(subscriber: $0) },
                { d.receive(subscriber: $0) }, { e.receive(subscriber: $0) }, { f.receive(subscriber: $0) },
            ])
        }

        /// Merges this merge's publishers and another into one ``Publishers/Merge7``, as Combine does.
        @inlinable
        public func merge<P>(with p: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
        where P: Publisher, P.Output == Output, P.Failure == Failure {
            Publishers.Merge7(a, b, c, d, e, f, p)
        }

        /// Merges this merge's publishers and 2 more into one ``Publishers/Merge8``, as Combine does.
        @inlinable
        public func merge<P, Z>(with p: P, _ z: Z) -> Publishers.Merge8<A, B, C, D, E, F, P, Z>
        where P: Publisher, P.Output == Output, P.Failure == Failure,
              Z: Publisher, Z.Output == Output, Z.Failure == Failure {
            Publishers.Merge8(a, b, c, d, e, f, p, z)
        }
    }

    /// A publisher that merges seven upstream publishers; see ``Publishers/Merge``.
    public struct Merge7<A, B, C, D, E, F, G>: Publisher
    where A: Publisher,
          B: Publisher, A.Output == B.Output, A.Failure == B.Failure,
          C: Publisher, A.Output == C.Output, A.Failure == C.Failure,
          D: Publisher, A.Output == D.Output, A.Failure == D.Failure,
          E: Publisher, A.Output == E.Output, A.Failure == E.Failure,
          F: Publisher, A.Output == F.Output, A.Failure == F.Failure,
          G: Publisher, A.Output == G.Output, A.Failure == G.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F
        public let g: G

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeSubscription.start(subscriber, subscribing: [
                { a.receive(subscriber: $0) }, { b.receive(subscriber: $0) }, { c.receive(subscriber: $0) },
                { d.receive(subscriber: $0) }, { e.receive(subscriber: $0) }, { f.receive(subscriber: $0) },
                { g.receive(subscriber: $0) },
            ])
        }

        /// Merges this merge's publishers and another into one ``Publishers/Merge8``, as Combine does.
        @inlinable
        public func merge<P>(with p: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
        where P: Publisher, P.Output == Output, P.Failure == Failure {
            Publishers.Merge8(a, b, c, d, e, f, g, p)
        }
    }

    /// A publisher that merges eight upstream publishers; see ``Publishers/Merge``.
    public struct Merge8<A, B, C, D, E, F, G, H>: Publisher
    where A: Publisher,
          B: Publisher, A.Output == B.Output, A.Failure == B.Failure,
          C: Publisher, A.Output == C.Output, A.Failure == C.Failure,
          D: Publisher, A.Output == D.Output, A.Failure == D.Failure,
          E: Publisher, A.Output == E.Output, A.Failure == E.Failure,
          F: Publisher, A.Output == F.Output, A.Failure == F.Failure,
          G: Publisher, A.Output == G.Output, A.Failure == G.Failure,
          H: Publisher, A.Output == H.Output, A.Failure == H.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F
        public let g: G
        public let h: H

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Subscribes `subscriber`, then every upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeSubscription.start(subscriber, subscribing: [
                { a.receive(subscriber: $0) }, { b.receive(subscriber: $0) }, { c.receive(subscriber: $0) },
                { d.receive(subscriber: $0) }, { e.receive(subscriber: $0) }, { f.receive(subscriber: $0) },
                { g.receive(subscriber: $0) }, { h.receive(subscriber: $0) },
            ])
        }
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable,
    E: Equatable, F: Equatable {}
extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable,
    E: Equatable, F: Equatable, G: Equatable {}
extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable,
    E: Equatable, F: Equatable, G: Equatable, H: Equatable {}
