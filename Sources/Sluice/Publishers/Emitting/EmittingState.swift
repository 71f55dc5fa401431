/// The state of one ``Publishers/Emitting`` subscription. States and transitions (under the emitter's
/// lock; every callout happens after it):
///
/// ```text
/// active(idle) ──send(v), demand > 0──▶ active(delivering)       → deliver v
/// active(idle) ──send(v), demand == 0──▶ active(idle)           → refused
/// active(delivering) ──send(v), demand > 0──▶ active(delivering) → queued (the deliverer delivers it)
/// active(delivering) ──delivered(extra), queue not empty──▶ delivering → deliver next
/// active(delivering) ──delivered(extra), pending completion──▶ terminated → completion
/// active(delivering) ──delivered(extra), nothing left──▶ active(idle)
/// active(idle) ──send(completion)──▶ terminated                 → completion
/// active(delivering) ──send(completion)──▶ active(delivering, completion pending)
/// active ──request(n)──▶ active(demand + n)                     → onRequest(n)
/// active ──cancel──▶ terminated                                 → onCancel()
/// terminated ──anything──▶ terminated                           (sends are refused)
/// ```
///
/// A value is accepted only against outstanding demand, taken at once, so the queue is bounded by the
/// demand. The demand, the deliverer, the queue and a completion kept for the deliverer are a
/// ``SerialDelivery``; `@inlinable` throughout, with the emitter's send path, so clients specialise them.
@usableFromInline
struct EmittingState<Output, Failure: Error> {
    @usableFromInline typealias RequestHandler = @Sendable (Subscribers.Demand) -> Void
    @usableFromInline typealias CancelHandler = @Sendable () -> Void

    @usableFromInline
    struct Active {
        @usableFromInline var downstream: EmittingDownstream<Output, Failure>
        @usableFromInline var delivery = SerialDelivery<Output, Failure>()
        @usableFromInline var onRequest: RequestHandler?
        @usableFromInline var onCancel: CancelHandler?

        @inlinable
        init(downstream: EmittingDownstream<Output, Failure>) { self.downstream = downstream }
    }

    @usableFromInline
    enum SendAction {
        case refused
        case queued
        case deliver(EmittingDownstream<Output, Failure>, Output)
    }

    @usableFromInline
    enum DrainAction {
        case idle
        case deliver(EmittingDownstream<Output, Failure>, Output)
        /// The retired state is released by the caller, after the lock.
        case complete(Subscribers.Completion<Failure>, retired: Active)
    }

    @usableFromInline
    enum CancelAction {
        case none
        case cancelled(retired: Active)
    }

    @usableFromInline
    enum State: Sendable {
        case active
        case terminated
    }

    @usableFromInline var state: State = .active
    /// The live part; meaningful only while `state == .active`. Stored, so each event mutates it in place.
    @usableFromInline var active: Active

    /// Whether the subscription ended by cancellation (not by a completion).
    @usableFromInline var wasCancelled = false

    @inlinable
    init(downstream: EmittingDownstream<Output, Failure>) {
        active = Active(downstream: downstream)
    }

    @inlinable
    var demand: Subscribers.Demand {
        state == .active && !active.delivery.isFinishing ? active.delivery.demand : .none
    }

    @inlinable
    var isTerminated: Bool { state == .terminated || active.delivery.isFinishing }

    @inlinable
    mutating func send(_ value: Output) -> SendAction {
        guard state == .active else { return .refused }
        switch active.delivery.admit(value) {
        case .refused: return .refused
        case .queued: return .queued
        case .deliver: return .deliver(active.downstream, value)
        }
    }

    @inlinable
    mutating func delivered(_ extra: Subscribers.Demand) -> DrainAction {
        guard state == .active else { return .idle }
        switch active.delivery.next(adding: extra) {
        case .value(let value): return .deliver(active.downstream, value)
        case .completion(let completion): return .complete(completion, retired: retire())
        case .idle: return .idle
        }
    }

    @inlinable
    mutating func send(completion: Subscribers.Completion<Failure>) -> DrainAction {
        guard state == .active, !active.delivery.isFinishing else { return .idle }
        guard active.delivery.finish(completion) else { return .idle }
        return .complete(completion, retired: retire())
    }

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> RequestHandler? {
        guard state == .active, !active.delivery.isFinishing else { return nil }
        active.delivery.demand += demand
        return active.onRequest
    }

    /// Stores the handler; returns the demand already outstanding, if any, to report to it.
    @inlinable
    mutating func setOnRequest(_ handler: @escaping RequestHandler) -> Subscribers.Demand {
        guard state == .active, !active.delivery.isFinishing else { return .none }
        active.onRequest = handler
        return active.delivery.demand
    }

    /// Stores the handler; returns `false` if the subscription is already cancelled or done.
    @inlinable
    mutating func setOnCancel(_ handler: @escaping CancelHandler) -> Bool {
        guard state == .active, !active.delivery.isFinishing else { return false }
        active.onCancel = handler
        return true
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        guard state == .active else { return .none }
        wasCancelled = true
        return .cancelled(retired: retire())
    }

    /// Ends the subscription; the returned live part is released by the caller after the lock.
    /// A dropped subscriber stands in, so the real one is no longer referenced.
    @inlinable
    mutating func retire() -> Active {
        state = .terminated
        let retired = active
        active = Active(downstream: EmittingDownstream(AnySubscriber()))
        return retired
    }
}

extension EmittingState: Sendable where Output: Sendable {}
extension EmittingState.Active: Sendable where Output: Sendable {}
