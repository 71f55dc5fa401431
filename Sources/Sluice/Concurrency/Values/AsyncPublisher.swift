/// A publisher's elements as an `AsyncSequence`, with the publisher's own failure type.
///
/// Made by ``Publisher/values``. One type serves throwing and non-throwing publishers: when
/// `P.Failure == Never`, `for await` needs no `try`; otherwise a typed `catch` gets `P.Failure`.
///
/// Each iterator subscribes to the publisher when it is made, requesting nothing. Each `next()` requests
/// exactly `.max(1)`, and only when nothing is buffered, so the outstanding demand never exceeds the waiting
/// `next()` calls. If the publisher delivers synchronously inside `request(_:)` (a sequence publisher,
/// `Just`), `next()` returns without suspending, locking or allocating.
///
/// Cancellation: cancelling the iterating task cancels the subscription and `next()` returns nil (never a
/// `CancellationError`); leaving the loop (`break`, `return`, a throw) cancels it too. After the publisher
/// completes, `next()` returns nil forever; a failure is thrown once, then nil.
///
/// Values a hot publisher (a subject) sends while the loop body runs find no demand and are dropped, as in
/// Combine. To keep them, use ``Publisher/values(prefetch:)`` or ``Publisher/values(bufferingPolicy:)``.
///
/// <!-- snippet: AsyncPublisherLoops -->
/// ```swift
/// var total = 0
/// for await number in [1, 2, 3].publisher.values {   // no `try`: the Failure is Never
///     total += number
/// }
/// do throws(ReadError) {
///     for try await line in lines.values { show(line) }
/// } catch {
///     report(error)   // a ReadError: the publisher's own Failure
/// }
/// ```
public struct AsyncPublisher<P: Publisher>: AsyncSequence {
    /// The publisher's output.
    public typealias Element = P.Output

    /// The publisher's failure; `Never` for a publisher that cannot fail.
    public typealias Failure = P.Failure

    /// How a buffering variant keeps elements; see ``Publisher/values(bufferingPolicy:)``.
    public typealias BufferingPolicy = ValuesBufferingPolicy

    @usableFromInline let publisher: P
    @usableFromInline let mode: ValuesMode

    /// Wraps `publisher`; the same as `publisher.values`.
    @inlinable
    public init(_ publisher: P) {
        self.init(publisher, mode: .onDemand)
    }

    @inlinable
    init(_ publisher: P, mode: ValuesMode) {
        self.publisher = publisher
        self.mode = mode
    }

    /// Subscribes to the publisher (requesting nothing yet) and returns the iterator.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let subscriber = ValuesSubscriber<P.Output, P.Failure>(mode: mode)
        let iterator = Iterator(ValuesIteratorLifetime(subscriber))
        publisher.subscribe(subscriber)
        return iterator
    }

    /// The iterator of an ``AsyncPublisher``: not Sendable (one task iterates); dropping it cancels.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let lifetime: ValuesIteratorLifetime<P.Output, P.Failure>

        /// The subscription once the default mode's fast lane requests through it directly,
        /// and the prefetch mode's batch: what `next()` uses without the lock.
        @usableFromInline var cache = ValuesIteratorCache<P.Output>()

        @inlinable
        init(_ lifetime: ValuesIteratorLifetime<P.Output, P.Failure>) { self.lifetime = lifetime }

        /// The next element, nil at the end or after cancellation; throws the failure once.
        ///
        /// Runs on the caller's actor throughout, with no executor switch per element: it is
        /// `nonisolated(nonsending)`, so a `for await` loop on an actor neither leaves the actor nor checks
        /// it again when `next` returns at once (with an `isolated` parameter, as the protocol spells it,
        /// every call would hop to `actor` and back). Called through the protocol from generic code, the
        /// standard witness hops to `actor` first, so it runs there.
        @inlinable
        public nonisolated(nonsending) mutating func next(
            isolation actor: (any Actor)?
        ) async throws(P.Failure) -> P.Output? {
            switch await lifetime.subscriber.next(cache: &cache) {
            case .element(let element): return element.value
            case .finished: return nil
            case .failure(let error): throw error
            }
        }

        /// The next element, nil at the end or after cancellation; throws the failure once.
        @inlinable
        public nonisolated(nonsending) mutating func next() async throws(P.Failure) -> P.Output? {
            try await next(isolation: nil)
        }
    }
}

extension AsyncPublisher: Sendable where P: Sendable {}

@available(*, unavailable)
extension AsyncPublisher.Iterator: Sendable {}

/// Combine's name for the throwing variant; in Sluice one type serves both.
public typealias AsyncThrowingPublisher<P: Publisher> = AsyncPublisher<P>

/// How ``Publisher/values(bufferingPolicy:)`` keeps elements the loop has not taken yet, and
/// ``Publisher/sink(isolation:bufferingPolicy:receiveCompletion:receiveValue:)`` the values its
/// actor has not processed yet; the names are `AsyncStream`'s.
public enum ValuesBufferingPolicy: Sendable, Equatable {
    /// Keep every element. Memory grows without bound if the loop falls behind.
    case unbounded
    /// Keep the oldest `n` elements; drop newer ones while the buffer is full.
    case bufferingOldest(Int)
    /// Keep the newest `n` elements; drop the oldest to make room.
    case bufferingNewest(Int)
}

extension Publisher {
    /// The publisher's elements as an `AsyncSequence`: each `next()` requests one element.
    ///
    /// Right for cold publishers and for anything that honours demand. A hot publisher's
    /// values sent while the loop body runs are dropped (Combine's contract); see
    /// ``values(prefetch:)`` and ``values(bufferingPolicy:)``.
    @inlinable
    public var values: AsyncPublisher<Self> { AsyncPublisher(self) }

    /// The elements with up to `prefetch` requested ahead of the loop.
    ///
    /// It requests `prefetch` at the first `next()`, then tops up to `prefetch` whenever at most half is
    /// left buffered or requested, so it never buffers more than `prefetch`. Use it for throughput (fewer,
    /// larger requests) and for hot sources that honour demand, where it keeps what arrives while the loop
    /// body runs (a source that sends beyond demand still traps). It pays off for publishers that deliver
    /// later, on another task or thread; for one that delivers inside `request(_:)`, such as a sequence, the
    /// default ``values`` is faster.
    @inlinable
    public func values(prefetch: Int) -> AsyncPublisher<Self> {
        if prefetch <= 0 { Violation.nonPositivePrefetch(prefetch) }
        return AsyncPublisher(self, mode: .prefetch(prefetch))
    }

    /// The elements with `.unlimited` demand, kept as `bufferingPolicy` says until the loop takes them.
    ///
    /// Use it for hot sources that ignore demand (subjects, notifications, UI events): `.bufferingNewest(n)`
    /// for state where only the latest matters, `.bufferingOldest(n)` to keep the first `n` and drop the
    /// rest, `.unbounded` only when the producer is known to be finite or slower than the loop.
    @inlinable
    public func values(bufferingPolicy: ValuesBufferingPolicy) -> AsyncPublisher<Self> {
        bufferingPolicy.checkLimit(in: "values(bufferingPolicy:)")
        return AsyncPublisher(self, mode: .buffering(bufferingPolicy))
    }
}
