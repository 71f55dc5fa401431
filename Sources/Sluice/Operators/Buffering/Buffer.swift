extension Publishers {
    /// How `buffer(size:prefetch:whenFull:)` asks its upstream for elements.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Fill the buffer at subscription, and keep it full thereafter.
        ///
        /// The buffer asks its upstream for `size` elements as soon as it is subscribed (before
        /// the downstream has its subscription, as in Combine), whatever the downstream
        /// requests, and for one more each time an element leaves the buffer for the
        /// downstream: what it holds plus what it has asked for never exceeds `size`.
        case keepFull

        /// Ask the upstream for everything (`.unlimited`) as soon as the buffer is subscribed (before the
        /// downstream has its subscription, as in Combine), and keep what the downstream has not asked for
        /// yet, up to `size`. So over a publisher that sends inside that request (a sequence's publisher),
        /// everything beyond `size` meets ``BufferingStrategy`` before the downstream can ask, as in Combine.
        ///
        /// This is what Combine does, though its documentation reads as if the downstream's
        /// demand were passed on: migrated code relies on it, for instance
        /// `buffer(size: .max, prefetch: .byRequest, whenFull: .dropNewest)` in front of
        /// `flatMap(maxPublishers: .max(1))` keeps a subject's burst instead of losing it.
        case byRequest
    }

    /// What `buffer(size:prefetch:whenFull:)` does with an element that arrives while the
    /// buffer holds `size` elements and the downstream has no demand.
    public enum BufferingStrategy<Failure: Error> {
        /// Drop the element that arrived.
        case dropNewest

        /// Drop the oldest element in the buffer, and keep the one that arrived.
        case dropOldest

        /// Fail: the upstream is cancelled and the closure makes the error, once, on the thread that sent the
        /// element that did not fit. As in Combine, the failure goes out at the downstream's next request
        /// (`.none` included), after the buffered elements that request covers; the rest are dropped.
        case customError(() -> Failure)
    }

    /// A publisher that keeps up to `size` of its upstream's elements that the downstream has
    /// no demand for yet, and delivers them, oldest first, as demand comes.
    ///
    /// Demand: never more elements reach the downstream than it requested. Upstream demand
    /// follows ``prefetch``; an element beyond `size` is handled by ``whenFull``.
    ///
    /// Completion: `.finished` comes after the buffered elements, as demand takes them out. An
    /// upstream failure does not wait for demand: it comes after the elements the downstream
    /// already has demand for, and the rest of the buffer is dropped (as in Combine).
    /// `customError`'s failure waits for the next request (see ``BufferingStrategy``).
    ///
    /// Before its upstream subscription the buffer ignores every signal (a value, a
    /// completion, the downstream's request or cancel), as Combine's does.
    ///
    /// Threading: the upstream may send on one thread while the downstream requests or cancels on another;
    /// the downstream gets one signal at a time, on whichever of those threads has something to deliver.
    public struct Buffer<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one buffers.
        public let upstream: Upstream

        /// The most elements the buffer keeps.
        public let size: Int

        /// How the buffer asks the upstream for elements.
        public let prefetch: Publishers.PrefetchStrategy

        /// What happens to an element that arrives while the buffer is full.
        public let whenFull: Publishers.BufferingStrategy<Failure>

        /// Creates a publisher that buffers up to `size` of `upstream`'s elements.
        ///
        /// With ``PrefetchStrategy/keepFull``, a negative `size` traps at subscription, as in
        /// Combine (it is the demand asked of the upstream); a size of 0 asks for nothing.
        @inlinable
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Subscribes `subscriber` through a buffer of its own.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                BufferSubscription(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

extension Publisher {
    /// Keeps up to `size` elements the downstream has no demand for yet, and delivers them,
    /// oldest first, as it asks.
    ///
    /// `prefetch` says how the upstream is asked: `.keepFull` asks for `size` at once and tops the buffer up
    /// as the downstream takes elements; `.byRequest` asks for `.unlimited` at once (as Combine does).
    /// `whenFull` says what becomes of an element that arrives while the buffer is full (`.customError`'s
    /// failure goes out at the next request); a buffer of size 0 is always full, as Combine's is, even while
    /// the downstream has demand. An element the upstream sends from inside the `.customError` closure traps
    /// (Combine's deadlocks). `.finished` comes after the buffered elements; an upstream failure comes at
    /// once (after the elements already requested), dropping the rest.
    ///
    /// <!-- snippet: BufferPrefetch -->
    /// ```swift
    /// // The pages are fetched up to 8 ahead of the consumer, which asks for one at a time.
    /// for await page in pages.buffer(size: 8, prefetch: .keepFull, whenFull: .dropNewest).values {
    ///     await render(page)
    /// }
    /// ```
    @inlinable
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}
