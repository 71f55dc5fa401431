extension Publishers {
    /// A publisher that sends the element that ranks highest by a closure when its upstream
    /// finishes: `max(by:)` ranks by the closure, `min(by:)` by its reverse.
    ///
    /// Of elements that rank equally, the first is kept. No element: no value, only the completion.
    public struct Comparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one compares.
        public let upstream: Upstream

        /// Whether its first argument ranks below its second; the highest-ranked element is sent.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher sending the highest-ranked element of `upstream`.
        @inlinable
        public init(
            upstream: Upstream,
            areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ranksBelow = areInIncreasingOrder
            let step = AccumulateStep<Output, Output, Failure, Failure>(
                name: "Comparison",
                result: nil
            ) { best, element in
                if let current = best, !ranksBelow(current, element) { return .more }
                best = element
                return .more
            }
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }

    /// A publisher that sends the highest-ranked element by a closure that can throw; a thrown
    /// error cancels the upstream and fails the stream.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose elements this one compares.
        public let upstream: Upstream

        /// Whether its first argument ranks below its second; an error ends the stream.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)->Publishers.Map<Self,T>``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher sending the highest-ranked element of `upstream`.
        @inlinable
        public init(
            upstream: Upstream,
            areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool,
            isolation: (any Actor)? = #isolation
        ) {
            self.isolation = isolation
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ranksBelow = areInIncreasingOrder
            let step = AccumulateStep<Output, Output, Upstream.Failure, any Error>(
                name: "TryComparison", result: nil, mapFailure: { $0 }
            ) { best, element in
                do {
                    if let current = best, try !ranksBelow(current, element) { return .more }
                } catch {
                    return .fail(error)
                }
                best = element
                return .more
            }
            upstream.receive(subscriber: ReducingSubscription(step: step, downstream: subscriber), isolation: isolation)
        }
    }
}

extension Publisher where Output: Comparable {
    /// Sends the smallest element when the upstream finishes.
    @inlinable
    public func min() -> Publishers.Comparison<Self> { Publishers.Comparison(upstream: self) { $1 < $0 } }

    /// Sends the largest element when the upstream finishes.
    @inlinable
    public func max() -> Publishers.Comparison<Self> { Publishers.Comparison(upstream: self, areInIncreasingOrder: <) }
}

extension Publisher {
    /// Sends the smallest element by `areInIncreasingOrder` when the upstream finishes.
    @inlinable
    public func min(
        by areInIncreasingOrder: @escaping (Output, Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Comparison<Self> {
        Publishers.Comparison(
            upstream: self,
            areInIncreasingOrder: { areInIncreasingOrder($1, $0) },
            isolation: isolation
        )
    }

    /// Sends the largest element by `areInIncreasingOrder` when the upstream finishes.
    @inlinable
    public func max(
        by areInIncreasingOrder: @escaping (Output, Output) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder, isolation: isolation)
    }

    /// Sends the smallest element by a closure that can throw when the upstream finishes.
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(
            upstream: self,
            areInIncreasingOrder: { try areInIncreasingOrder($1, $0) },
            isolation: isolation
        )
    }

    /// Sends the largest element by a closure that can throw when the upstream finishes.
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder, isolation: isolation)
    }
}
