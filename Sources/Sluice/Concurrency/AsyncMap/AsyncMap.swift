extension Publishers {
    /// A publisher that runs an async closure on each upstream element, on at most
    /// `maxConcurrent` tasks that take the elements one after another (not a task per element),
    /// and publishes the results in the upstream's order (`ordered`) or as they finish.
    ///
    /// Once the downstream has asked for anything, it keeps `maxConcurrent` elements in hand (requested,
    /// running, or done and waiting for demand), asking the upstream for one more per result delivered, so
    /// the tasks run ahead of a downstream that asks for one at a time (`for await` over `values`).
    /// Cancelling the subscription cancels the upstream and every running task (the closure sees
    /// `Task.isCancelled`; a result it returns anyway is dropped). A failure of the upstream or the closure
    /// cancels everything else and fails the stream after the results already delivered. Results reach the
    /// downstream one at a time, on the thread of the task that produced them.
    public struct AsyncMap<Upstream: Publisher, Output: Sendable>: Publisher where Upstream.Output: Sendable {
        public typealias Failure = Upstream.Failure

        public let upstream: Upstream
        /// The most tasks running at once; at least 1.
        public let maxConcurrent: Int
        /// `true`: results in the upstream's order; `false`: as the tasks finish.
        public let ordered: Bool
        public let transform: @Sendable (Upstream.Output) async throws(Failure) -> Output

        /// Creates the publisher; traps (rule 2) if `maxConcurrent` is below 1.
        @inlinable
        public init(
            upstream: Upstream, maxConcurrent: Int, ordered: Bool,
            transform: @escaping @Sendable (Upstream.Output) async throws(Failure) -> Output
        ) {
            if maxConcurrent < 1 { Violation.nonPositiveConcurrency(maxConcurrent) }
            self.upstream = upstream
            self.maxConcurrent = maxConcurrent
            self.ordered = ordered
            self.transform = transform
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(AsyncMapSubscription<Upstream.Output, S>(
                downstream: subscriber,
                mode: ordered ? .ordered : .unordered,
                limit: maxConcurrent,
                transform: transform))
        }
    }

    /// A publisher that runs an async closure on each upstream element, cancelling the run of
    /// the previous element if it is still going, and publishes the result of the latest.
    ///
    /// It asks its upstream for `.unlimited`, as `switchToLatest` does; a result that arrives without
    /// demand waits (only the latest) until the downstream asks. A failure of the upstream or the closure
    /// cancels everything else and fails the stream; cancelling the subscription cancels the upstream and
    /// the running task.
    public struct AsyncMapLatest<Upstream: Publisher, Output: Sendable>: Publisher where Upstream.Output: Sendable {
        public typealias Failure = Upstream.Failure

        public let upstream: Upstream
        public let transform: @Sendable (Upstream.Output) async throws(Failure) -> Output

        @inlinable
        public init(
            upstream: Upstream,
            transform: @escaping @Sendable (Upstream.Output) async throws(Failure) -> Output
        ) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(AsyncMapSubscription<Upstream.Output, S>(
                downstream: subscriber, mode: .latest, limit: 1, transform: transform))
        }
    }
}

extension Publisher where Output: Sendable {
    /// Runs `transform` on each element, on at most `maxConcurrent` tasks at once,
    /// and publishes the results in the order of the elements; see ``Publishers/AsyncMap``.
    ///
    /// It replaces Combine's `flatMap { value in Future { promise in Task { … } } }`, which
    /// neither cancels the tasks nor holds the upstream back:
    ///
    /// <!-- snippet: AsyncMapThumbnails -->
    /// ```swift
    /// let thumbnails = urls.asyncMap(maxConcurrent: 4) { url throws(LoadError) in
    ///     try await loadThumbnail(url)  // cancelled with the subscription
    /// }
    /// ```
    @inlinable
    public func asyncMap<T: Sendable>(
        maxConcurrent: Int = 1, _ transform: @escaping @Sendable (Output) async throws(Failure) -> T
    ) -> Publishers.AsyncMap<Self, T> {
        Publishers.AsyncMap(upstream: self, maxConcurrent: maxConcurrent, ordered: true, transform: transform)
    }

    /// Runs `transform` on each element, on at most `maxConcurrent` tasks at once,
    /// and publishes each result as its run finishes; see ``Publishers/AsyncMap``.
    @inlinable
    public func asyncMapUnordered<T: Sendable>(
        maxConcurrent: Int, _ transform: @escaping @Sendable (Output) async throws(Failure) -> T
    ) -> Publishers.AsyncMap<Self, T> {
        Publishers.AsyncMap(upstream: self, maxConcurrent: maxConcurrent, ordered: false, transform: transform)
    }

    /// Runs `transform` on each element, cancelling the previous element's run if it is still
    /// going, and publishes the latest result; see ``Publishers/AsyncMapLatest``.
    ///
    /// It replaces Combine's `map { query in Future { … } }.switchToLatest()` for
    /// search-as-you-type, with the superseded request cancelled, not just ignored:
    ///
    /// <!-- snippet: AsyncMapLatestSearch -->
    /// ```swift
    /// let results = queries.asyncMapLatest { query in await search(query) }
    /// ```
    @inlinable
    public func asyncMapLatest<T: Sendable>(
        _ transform: @escaping @Sendable (Output) async throws(Failure) -> T
    ) -> Publishers.AsyncMapLatest<Self, T> {
        Publishers.AsyncMapLatest(upstream: self, transform: transform)
    }
}
