/// The state of one ``Publishers/Sequence`` subscription; its storage runs every transition
/// under its lock and acts on the result after unlocking.
///
/// Whoever finds demand while `idle` becomes the *emitter*: it takes the iterator and the
/// subscriber out of the state and delivers elements without the lock. Demand requested
/// meanwhile (from inside `receive(_:)` or from another thread) is added to `pending` and
/// picked up by the emitter when its own demand runs out, so recursion stays bounded.
///
/// ```
///              request(n): emit n
///   idle ─────────────────────────────▶ emitting(pending)
///    ▲   out of demand, pending == 0     │  ▲ request(n): pending += n
///    └───────────────────────────────────┤  └ out of demand, pending > 0: emit pending
///    │ cancel                            │ cancel / sequence exhausted
///    ▼                                   ▼
///  terminated ◀──────────────────────────┘      (request and cancel do nothing here)
/// ```
@usableFromInline
struct SequenceStateMachine<Downstream: Subscriber, Elements: Sequence>
where Downstream.Input == Elements.Element {
    /// What the emitter needs: the subscriber, the iterator and the element it will deliver
    /// next (read ahead, so that the completion follows the last element at once).
    @usableFromInline
    struct Emission {
        @usableFromInline var downstream: Downstream
        @usableFromInline var iterator: Elements.Iterator
        @usableFromInline var next: Elements.Element

        @inlinable
        init(downstream: Downstream, iterator: Elements.Iterator, next: Elements.Element) {
            self.downstream = downstream
            self.iterator = iterator
            self.next = next
        }
    }

    @usableFromInline
    enum State {
        case idle(Emission)
        case emitting(pending: Subscribers.Demand)
        case terminated
    }

    @usableFromInline
    var state: State

    /// The sequence, kept for `description` until the subscription terminates.
    @usableFromInline
    var sequence: Elements?

    @inlinable
    init(_ emission: Emission, sequence: Elements) {
        state = .idle(emission)
        self.sequence = sequence
    }

    /// Demand arrived. Returns what the caller must emit, if it becomes the emitter.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> (Emission, Subscribers.Demand)? {
        switch state {
        case .idle(let emission):
            state = .emitting(pending: .none)
            return (emission, demand)
        case .emitting(let pending):
            state = .emitting(pending: pending + demand)
            return nil
        case .terminated:
            return nil
        }
    }

    /// The emitter used up its demand. Returns the demand to continue with, or `nil` when it
    /// must stop: the emission is parked (idle) or the subscription was cancelled.
    @inlinable
    mutating func outOfDemand(parking emission: Emission) -> Subscribers.Demand? {
        switch state {
        case .emitting(let pending) where pending > 0:
            state = .emitting(pending: .none)
            return pending
        case .emitting:
            state = .idle(emission)
            return nil
        case .idle, .terminated:
            return nil
        }
    }

    /// The emitter delivered the last element. Returns whether it must send `.finished`.
    @inlinable
    mutating func exhausted() -> Bool {
        guard case .emitting = state else { return false }
        state = .terminated
        sequence = nil
        return true
    }

    /// Cancellation. Returns the parked emission, if any, to be released after unlocking
    /// (releasing the subscriber may run its deinit, which is user code).
    @inlinable
    mutating func cancel() -> Emission? {
        defer {
            state = .terminated
            sequence = nil
        }
        if case .idle(let emission) = state { return emission }
        return nil
    }
}
