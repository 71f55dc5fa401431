/// The decisions behind ``AsyncPublisher``: one instance per iterator, run under the lock of
/// its subscriber (`ValuesSubscriber`). Every event is a `mutating func` that returns what to
/// do; the subscriber does it after unlocking (design rule 6).
///
/// Phases and transitions (`waiter` is the suspended `next()`, `buffer` the elements
/// delivered and not yet taken, `outstanding` the demand requested and not yet used):
///
/// ```text
/// awaitingSubscription ──subscribed──▶ active(subscription)
///   │                                    │  next(): buffer empty, outstanding 0 → request
///   │                                    │          (waiting for demand), then element ready
///   │                                    │          in buffer or suspend(waiter)
///   │                                    │  received: waiter? resume it : buffer it
///   │                                    ├──completed──▶ upstreamCompleted(completion)
///   │                                    │                 │ next(): buffer first, then the
///   │                                    │                 ▼ completion (once) ──▶ terminated
///   └──────────cancel────────────────────┴──cancel──────▶ terminated (nil forever)
/// ```
///
/// Signals out of turn (a value after the completion, a second completion) are ignored, as in Combine. A
/// value before the subscription wakes the waiting `next()` calls with nil (their demand is still requested
/// when it comes), as Combine's iterator does; a completion before it ends the iteration, and the late
/// subscription is cancelled.
///
/// Copies of one iterator may wait at once (as Combine allows): in `.onDemand` mode each waiting `next()` has
/// its own `.max(1)` outstanding, elements go to the waiters in the order they came, and a completion or
/// cancel wakes them all (a failure is thrown to the first only).
///
/// Modes: `.onDemand` requests `.max(1)` only when a `next()` finds nothing buffered, through the
/// subscriber's synchronous fast lane (`requestViaFastLane`), which keeps that demand outside this machine
/// until the subscriber settles the lane under the lock (`fastLaneMissed()`); `.prefetch(n)` requests `n`,
/// then tops up to `n` when at most `n / 2` remain buffered or requested; `.buffering(policy)` requests
/// `.unlimited` once and keeps elements as the policy says.
@usableFromInline
struct ValuesState<Element, Failure: Error>: Sendable {
    @usableFromInline typealias Continuation = UnsafeContinuation<ValuesResult<Element, Failure>, Never>

    @usableFromInline
    enum Phase: Sendable {
        case awaitingSubscription
        case active(UpstreamSubscription)
        case upstreamCompleted(Subscribers.Completion<Failure>)
        case terminated

        @inlinable
        var kind: PhaseKind {
            switch self {
            case .awaitingSubscription: .awaitingSubscription
            case .active: .active
            case .upstreamCompleted: .upstreamCompleted
            case .terminated: .terminated
            }
        }
    }

    /// ``Phase`` without payloads.
    @usableFromInline
    enum PhaseKind: Sendable {
        case awaitingSubscription, active, upstreamCompleted, terminated
    }

    /// What `next()` does after unlocking.
    @usableFromInline
    enum NextAction {
        /// Return the element; if `replenish` is set, request more first (prefetch mode).
        case element(HandOff<Element>, replenish: (UpstreamSubscription, Subscribers.Demand)?)
        /// Return nil (`failure == nil`) or throw once.
        case end(Failure?)
        /// Request, then ask again: a synchronous upstream will have delivered.
        case request(UpstreamSubscription, Subscribers.Demand)
        /// `.onDemand` only: request `.max(1)` through the subscriber's fast lane, which counts it itself.
        case requestViaFastLane(UpstreamSubscription)
        /// Nothing ready: suspend.
        case suspend
    }

    /// What `suspend(_:)` does after unlocking.
    @usableFromInline
    enum SuspendAction {
        case none
        /// Resume at once; then request `replenish`, if set (prefetch mode).
        case resume(
            Continuation,
            ValuesResult<Element, Failure>,
            replenish: (UpstreamSubscription, Subscribers.Demand)?
        )
        case request(UpstreamSubscription, Subscribers.Demand)
    }

    /// What `receive(_:)` and `receive(completion:)` do after unlocking.
    @usableFromInline
    enum DeliveryAction {
        case none
        case resume(Continuation, ValuesResult<Element, Failure>)
        /// An element the buffering policy dropped (or one out of turn), released outside the lock.
        case drop(HandOff<Element>)
        /// Wakes every waiter: the first gets `result`, the others nil.
        case end(Continuation, ValuesResult<Element, Failure>, others: FIFO<Continuation>)
    }

    @usableFromInline var phase: Phase = .awaitingSubscription {
        didSet { phaseKind = phase.kind }
    }
    /// `phase` without its payload, for the per-element paths: a `switch` on `phase`, even one binding
    /// nothing, copied its subscription's existential box (a retain and a release) per element.
    @usableFromInline private(set) var phaseKind: PhaseKind = .awaitingSubscription
    @usableFromInline var waiter: Continuation?
    /// Further waiting `next()` calls, from copies of the iterator; almost always empty.
    @usableFromInline var laterWaiters = FIFO<Continuation>()
    @usableFromInline var outstanding: Subscribers.Demand = .none
    @usableFromInline var buffer = ValuesBuffer<Element>()
    @usableFromInline let mode: ValuesMode
    /// `.buffering` mode requests `.unlimited` when the subscription comes, not at the first waiting
    /// `next()`: the isolated sinks' loop, which starts later on its actor, keeps what is sent meanwhile.
    @usableFromInline let requestsAtSubscription: Bool

    @usableFromInline
    init(mode: ValuesMode, requestsAtSubscription: Bool = false) {
        self.mode = mode
        self.requestsAtSubscription = requestsAtSubscription
    }

    /// How many `next()` calls are suspended.
    @inlinable
    var waiting: Int { waiter == nil ? 0 : 1 + laterWaiters.count }

    /// The demand a `next()` about to wait needs now (beside the `waiting` ones), or nil if enough is out.
    @inlinable
    mutating func demandToRequest() -> Subscribers.Demand? {
        let demand: Subscribers.Demand
        switch mode {
        case .onDemand:
            guard outstanding <= waiting else { return nil }
            demand = .max(1)
        case .prefetch(let limit):
            guard outstanding == .none else { return nil }
            demand = .max(limit)
        case .buffering:
            guard outstanding == .none else { return nil }
            demand = .unlimited
        }
        outstanding += demand
        return demand
    }

    @inlinable
    mutating func park(_ continuation: Continuation) {
        if waiter == nil { waiter = continuation } else { laterWaiters.append(continuation) }
    }

    @inlinable
    mutating func unpark() -> Continuation? {
        let first = waiter
        waiter = laterWaiters.popFirst()
        return first
    }

    /// After an element was taken in prefetch mode: the batch that tops the level up to the
    /// limit, once at most half of it is left. `held` counts the elements the iterator took
    /// in a batch and has not returned yet: they are still buffered, only outside the lock.
    @inlinable
    mutating func replenishment(held: Int = 0) -> Subscribers.Demand? {
        guard case .prefetch(let limit) = mode, let pending = outstanding.max else { return nil }
        let level = buffer.count + held + pending
        guard level <= limit / 2 else { return nil }
        outstanding += limit - level
        return .max(limit - level)
    }

    // MARK: Consumer side

    /// The fast lane's request found nothing delivered: its one element of demand is still
    /// outstanding, and from now on counted here.
    @inlinable
    mutating func fastLaneMissed() {
        outstanding += 1
    }

    /// The consumer's next step; `fastLane` lets `.onDemand` mode request through the fast lane. In
    /// `.prefetch` mode, with more than one element buffered, the iterator takes them all: the buffer is
    /// swapped with its empty `batch` (no allocation), and the rest are served from it without the lock.
    @inlinable
    mutating func next(fastLane: Bool = false, batch: inout ValuesBuffer<Element>) -> NextAction {
        if case .prefetch = mode, buffer.count > 1, batch.count == 0 {
            swap(&buffer, &batch)
            let element = batch.popFirst()!
            if case .active(let subscription) = phase, let more = replenishment(held: batch.count) {
                return .element(element, replenish: (subscription, more))
            }
            return .element(element, replenish: nil)
        }
        return next(fastLane: fastLane)
    }

    /// In `.prefetch` mode, how many elements the iterator may take from its batch before the level
    /// (buffered, held and requested) falls to half the limit and it must call ``topUp(held:)``. Only the
    /// iterator changes the level (a delivery moves one from requested to buffered), so it counts alone.
    @inlinable
    func takesBeforeTopUp(held: Int) -> Int {
        guard case .prefetch(let limit) = mode, case .active = phase, let pending = outstanding.max else {
            return .max
        }
        return buffer.count + held + pending - limit / 2
    }

    /// The iterator's batch fell to the top-up point: the demand to request, if any.
    @inlinable
    mutating func topUp(held: Int) -> (UpstreamSubscription, Subscribers.Demand)? {
        guard case .active(let subscription) = phase, let more = replenishment(held: held) else { return nil }
        return (subscription, more)
    }

    /// The consumer's next step, one element at a time.
    @inlinable
    mutating func next(fastLane: Bool = false) -> NextAction {
        if let element = buffer.popFirst() {
            if case .active(let subscription) = phase, let more = replenishment() {
                return .element(element, replenish: (subscription, more))
            }
            return .element(element, replenish: nil)
        }
        switch phase {
        case .awaitingSubscription:
            return .suspend
        case .active(let subscription):
            if fastLane, case .onDemand = mode, outstanding == .none, waiter == nil {
                return .requestViaFastLane(subscription)
            }
            if let demand = demandToRequest() { return .request(subscription, demand) }
            return .suspend
        case .upstreamCompleted(let completion):
            phase = .terminated
            if case .failure(let error) = completion { return .end(error) }
            return .end(nil)
        case .terminated:
            return .end(nil)
        }
    }

    /// Parks `continuation` unless something arrived since `next()` said to suspend.
    @inlinable
    mutating func suspend(_ continuation: Continuation) -> SuspendAction {
        switch next() {
        case .element(let element, let replenish):
            return .resume(continuation, .element(element), replenish: replenish)
        case .end(let failure):
            return .resume(continuation, failure.map { .failure($0) } ?? .finished, replenish: nil)
        case .request(let subscription, let demand):
            park(continuation)
            return .request(subscription, demand)
        case .requestViaFastLane:
            preconditionFailure("suspend(_:) never asks for the fast lane")
        case .suspend:
            if case .awaitingSubscription = phaseKind, case .onDemand = mode { outstanding += 1 }
            park(continuation)
            return .none
        }
    }

    /// Ends the iteration: idempotent. Returns the subscription to cancel, the waiters to
    /// wake with nil and the buffer to release, all outside the lock.
    @inlinable
    mutating func cancel() -> (UpstreamSubscription?, FIFO<Continuation>, ValuesBuffer<Element>)? {
        let subscription: UpstreamSubscription?
        switch phase {
        case .terminated: return nil
        case .active(let current): subscription = current
        case .awaitingSubscription, .upstreamCompleted: subscription = nil
        }
        phase = .terminated
        var waiters = FIFO<Continuation>()
        while let continuation = unpark() { waiters.append(continuation) }
        defer { buffer = ValuesBuffer() }
        return (subscription, waiters, buffer)
    }

    // MARK: Upstream side

    /// The first subscription is kept; returns one to cancel (late or second), if any.
    @inlinable
    mutating func subscribed(
        _ subscription: UpstreamSubscription
    ) -> (cancel: UpstreamSubscription?, request: Subscribers.Demand?) {
        guard case .awaitingSubscription = phase else { return (subscription, nil) }
        phase = .active(subscription)
        if case .onDemand = mode { return (nil, outstanding == .none ? nil : outstanding) }
        guard waiter != nil || requestsAtSubscription else { return (nil, nil) }
        return (nil, demandToRequest())
    }

    @inlinable
    mutating func received(_ element: HandOff<Element>) -> (DeliveryAction, Subscribers.Demand) {
        guard case .active = phaseKind else {
            guard case .awaitingSubscription = phaseKind, let first = unpark() else { return (.drop(element), .none) }
            var others = FIFO<Continuation>()
            while let later = unpark() { others.append(later) }
            return (.end(first, .finished, others: others), .none)
        }
        guard outstanding > 0 else { Violation.valueBeyondDemand("AsyncPublisher") }
        outstanding -= 1
        if let continuation = unpark() {
            guard case .prefetch = mode, let more = replenishment() else {
                return (.resume(continuation, .element(element)), .none)
            }
            return (.resume(continuation, .element(element)), more)
        }
        guard case .buffering(let policy) = mode else {
            buffer.append(element)
            return (.none, .none)
        }
        let dropped = buffer.append(element, keeping: policy)
        return (dropped.map { .drop($0) } ?? .none, .none)
    }

    @inlinable
    mutating func completed(_ completion: Subscribers.Completion<Failure>) -> DeliveryAction {
        switch phaseKind {
        case .upstreamCompleted, .terminated: return .none
        case .awaitingSubscription, .active: break
        }
        guard let continuation = unpark() else {
            phase = .upstreamCompleted(completion)
            return .none
        }
        // A waiter means the buffer is empty: the completion goes straight to the waiters.
        phase = .terminated
        var others = FIFO<Continuation>()
        while let later = unpark() { others.append(later) }
        if case .failure(let error) = completion { return .end(continuation, .failure(error), others: others) }
        return .end(continuation, .finished, others: others)
    }
}
