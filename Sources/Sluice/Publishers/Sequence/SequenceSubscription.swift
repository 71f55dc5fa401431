import Synchronization

/// The subscription of ``Publishers/Sequence``: the storage that runs
/// ``SequenceStateMachine`` under a lock and delivers elements without holding it.
///
/// The per-element loop, ``emit(_:demand:)``, takes no lock: it checks an atomic
/// `cancelled` flag before each element and counts demand locally; it takes the lock once
/// each time its demand runs out (never, for `.unlimited`).
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Elements: Sequence>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Elements.Element {
    @usableFromInline typealias Machine = SequenceStateMachine<Downstream, Elements>

    /// The state machine, under the lock; the locked steps are inlinable, so they too run
    /// specialised in the client.
    @usableFromInline let state: Locked<Machine>

    /// Set by `cancel()`; read before each element so that cancelling stops delivery at once.
    @usableFromInline let cancelled = Atomic<Bool>(false)

    /// Calls ``handle(_:)``; made in the client's specialised context (see
    /// `Publishers.Sequence.receive(subscriber:)`) so that the request path and the loop run
    /// specialised even though `request(_:)` is called through `any Subscription` (generic
    /// code run unspecialised looks up type metadata on every call: ~900 ns per `request`
    /// measured for `values`, which requests one element at a time).
    @usableFromInline let handler: (SequenceSubscription, Subscribers.Demand) -> Void

    @usableFromInline
    init(
        downstream: Downstream, sequence: Elements, iterator: Elements.Iterator, first: Elements.Element,
        handler: @escaping (SequenceSubscription, Subscribers.Demand) -> Void
    ) {
        let emission = Machine.Emission(downstream: downstream, iterator: iterator, next: first)
        state = Locked(Machine(emission, sequence: sequence))
        self.handler = handler
    }

    /// Adds demand; if nobody is emitting, delivers elements on this thread until the demand
    /// is used up. Traps on `.none`.
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        handler(self, demand)
    }

    /// The body of ``request(_:)``, specialised in the client: adds the demand and, if this
    /// caller becomes the emitter, runs the loop.
    @inlinable
    func handle(_ demand: Subscribers.Demand) {
        guard let (emission, demand) = state.withLock({ $0.request(demand) }) else { return }
        emit(emission, demand: demand)
    }

    /// Stops delivery and drops the subscriber; idempotent, callable from any thread and from
    /// inside `receive(_:)`.
    @usableFromInline
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        let parked = state.withLock { $0.cancel() }
        withExtendedLifetime(parked) {}  // released here, after unlocking
    }

    /// The emitter's loop: delivers `emission.next` and reads ahead while there is demand.
    @inlinable
    func emit(_ emission: Machine.Emission, demand: Subscribers.Demand) {
        var emission = emission
        var demand = demand
        while true {
            while demand > 0 {
                if cancelled.load(ordering: .acquiring) { return }
                let following = emission.iterator.next()
                let more = emission.downstream.receive(emission.next)
                guard let following else {
                    finish(emission.downstream)
                    return
                }
                emission.next = following
                demand -= 1
                demand += more
            }
            guard let resumed = outOfDemand(parking: emission) else { return }
            demand = resumed
        }
    }

    /// The emitter's demand ran out: continue with the pending demand, or park and stop.
    @inlinable
    func outOfDemand(parking emission: Machine.Emission) -> Subscribers.Demand? {
        state.withLock { $0.outOfDemand(parking: emission) }
    }

    /// The last element was delivered: finish, unless cancelled meanwhile.
    @inlinable
    func finish(_ downstream: Downstream) {
        if state.withLock({ $0.exhausted() }) {
            downstream.receive(completion: .finished)
        }
    }

    /// The sequence while the subscription is active, `"Sequence"` afterwards, as in Combine.
    @usableFromInline
    var description: String {
        guard let sequence = state.withLock({ $0.sequence }) else { return "Sequence" }
        return String(describing: sequence)
    }

    /// One child, `sequence`, as Combine shows it.
    @usableFromInline
    var customMirror: Mirror {
        let sequence: Any = state.withLock { $0.sequence } ?? [Elements.Element]()
        return Mirror(self, children: ["sequence": sequence])
    }

    /// The same as ``description``.
    @usableFromInline
    var playgroundDescription: Any { description }
}
