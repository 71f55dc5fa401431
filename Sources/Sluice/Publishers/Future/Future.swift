/// A publisher that eventually produces a single value and then finishes or fails.
///
/// The closure runs once, when the future is created; its result is kept, and every subscriber, also a
/// later one, receives it: a success once it has requested a value, followed by `.finished`, a failure at
/// once. The promise may be called from any thread; only its first call counts.
///
/// <!-- snippet: FutureKeepsItsResult -->
/// ```swift
/// let future = Future<Int, Never> { promise in
///     Task { promise(.success(42)) }   // the closure runs now; the promise is kept for later
/// }
/// let first = await future.value       // 42
/// let second = await future.value      // 42 again: the result is kept, not made again
/// ```
public final class Future<Output, Failure: Error>: Publisher {
    /// A type that represents a closure to invoke in the future, when an element or error is available.
    ///
    /// `@Sendable`, unlike Combine's: a promise is fulfilled later, from a callback, a dispatch queue or a
    /// `Task`, which Swift 6 allows only for a `Sendable` closure. Calling it hands the result to the
    /// subscribers on the calling thread (a `sink` made on an actor still runs its closure there). The
    /// result is `sending`: a non-`Sendable` value must be given away; a `Sendable` one is passed as usual.
    public typealias Promise = @Sendable (sending Result<Output, Failure>) -> Void

    @usableFromInline let storage: FutureStorage<Output, Failure>

    /// Creates a publisher that invokes a promise closure when the publisher emits an element.
    @inlinable
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        let storage = FutureStorage<Output, Failure>()
        self.storage = storage
        attemptToFulfill { result in storage.fulfil(result) }
    }

    /// Attaches the subscriber; it receives the result (now or once known) per its demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = FutureConduit(downstream: subscriber, parent: self)
        subscriber.receive(subscription: conduit)
        // Registered only after the subscription is handed over, so no signal overtakes it (rule 1).
        if let result = storage.register(conduit.combineIdentifier, conduit.fulfil) {
            conduit.fulfil(result)
        }
    }
}

// Sendable where its output is, as the subjects are: its one stored property, the storage, is locked.
extension Future: Sendable where Output: Sendable {}

/// The state of a ``Future`` shared with its conduits and its promise: the result once known, and the
/// conduits waiting for it. A struct around the one lock's buffer, so that a future costs two
/// allocations (itself and the lock's) and the promise captures one reference.
///
/// ```text
/// pending(waiting) ──fulfil──▶ resolved(result)   (the waiting conduits are fulfilled after the lock)
/// resolved ──fulfil──▶ resolved                  (later promises are ignored)
/// ```
@usableFromInline
struct FutureStorage<Output, Failure: Error> {
    @usableFromInline typealias Waiter = (id: CombineIdentifier, fulfil: (Result<Output, Failure>) -> Void)

    @usableFromInline
    enum State {
        case pending([Waiter])
        case resolved(Result<Output, Failure>)
    }

    @usableFromInline let state = Locked<State>(.pending([]))

    @inlinable init() {}

    @inlinable
    func fulfil(_ result: Result<Output, Failure>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard case .pending(let waiters) = state else { return [] }
            state = .resolved(result)
            return waiters
        }
        for waiter in waiters { waiter.fulfil(result) }
    }

    /// The result once a promise was called, `nil` while pending (`Future.value` reads it unsubscribed).
    @inlinable
    var result: Result<Output, Failure>? {
        state.withLock { state in
            guard case .resolved(let result) = state else { return nil }
            return result
        }
    }

    /// Adds a waiter while pending; returns the result when already resolved.
    @inlinable
    func register(
        _ id: CombineIdentifier, _ fulfil: @escaping (Result<Output, Failure>) -> Void
    ) -> Result<Output, Failure>? {
        state.withLock { state in
            switch state {
            case .pending(var waiters):
                waiters.append((id, fulfil))
                state = .pending(waiters)
                return nil
            case .resolved(let result):
                return result
            }
        }
    }

    /// Removes a cancelled waiter so the future stops holding it.
    @inlinable
    func remove(_ id: CombineIdentifier) {
        let removed = state.withLock { state -> [Waiter] in
            guard case .pending(var waiters) = state else { return [] }
            let gone = waiters.filter { $0.id == id }
            waiters.removeAll { $0.id == id }
            state = .pending(waiters)
            return gone
        }
        // The removed closure (and the conduit it holds) is released here, outside the lock.
        _ = removed
    }
}

// Safe to share: every access to the state goes through its lock, and fulfilling hands the result to the
// subscribers on the promise's thread (rule 3 holds: one result, delivered once per conduit). The result
// comes `sending`, so a non-Sendable value enters the storage only when its sender can no longer touch it.
extension FutureStorage: @unchecked Sendable {}
