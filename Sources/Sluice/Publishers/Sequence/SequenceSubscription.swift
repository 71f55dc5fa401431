import Synchronization

/// The subscription of ``Publishers/Sequence``; it takes no lock. ``PendingDemand`` counts the demand
/// and grants the emitter role: whoever requests while nobody emits delivers on its own thread until the
/// demand runs out; demand requested meanwhile (re-entrantly or from another thread) goes to that
/// emitter, so signals are serial and recursion is bounded.
///
/// States (`terminated` is set by `cancel()` or by the last element, and is final):
///
/// ```text
///   idle (count 0) ──request──▶ emitting ──demand used up, nothing added──▶ idle
///        │                        │  request: count += n (the emitter continues with it)
///        │ cancel: take the role,  │ cancel: the emitter sees `terminated` before the next
///        ▼ drop the emission       ▼ element and drops the emission
///   terminated ◀──────────────────┘ last element delivered: terminated, then `.finished`
/// ```
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Elements: Sequence>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Elements.Element {
    /// What the emitter needs: the subscriber, the iterator and the next element (read ahead, so the
    /// completion follows the last element at once). Not copyable, so that moving it in and out of
    /// ``emission`` never retains and releases the subscriber.
    @usableFromInline
    struct Emission: ~Copyable {
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

    /// Demand requested and not yet delivered, and the emitter role.
    @usableFromInline let pending = PendingDemand()

    /// Set once, by `cancel()` or when the sequence is exhausted; read before each element.
    @usableFromInline let terminated = Atomic<Bool>(false)

    /// Touched only by the emitter-role holder, whose atomic hand-over orders the accesses; nil once
    /// terminated. A pointer, not a `var`, whose exclusivity would be checked at run time on every use.
    @usableFromInline let emission: UnsafeMutablePointer<Emission?>

    /// Kept for `description` and `customMirror`, which show it while active, as Combine's do.
    @usableFromInline let sequence: Elements

    /// Calls ``emit(_:)``; made in the client's specialised context so that the loop runs specialised
    /// although `request(_:)` is called through `any Subscription` (see ``SpecializedEntry``).
    @usableFromInline let emitter: SpecializedEntry<SequenceSubscription, Subscribers.Demand>

    /// What follows the last element: `.finished` for a sequence, the recorded completion for
    /// a ``Record`` (whose subscription plays its output through this one).
    @usableFromInline let completion: Subscribers.Completion<Downstream.Failure>

    @usableFromInline
    init(
        downstream: Downstream, sequence: Elements, iterator: Elements.Iterator, first: Elements.Element,
        completion: Subscribers.Completion<Downstream.Failure> = .finished,
        emitter: @escaping (SequenceSubscription, Subscribers.Demand) -> Void
    ) {
        emission = .allocate(capacity: 1)
        emission.initialize(to: Emission(downstream: downstream, iterator: iterator, next: first))
        self.sequence = sequence
        self.completion = completion
        self.emitter = SpecializedEntry(emitter)
    }

    deinit {
        emission.deinitialize(count: 1)
        emission.deallocate()
    }

    /// Adds demand; if nobody is emitting, delivers elements on this thread until it is used up.
    /// `.none` adds nothing, as in Combine (whose sequence subscription does not trap on it).
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard demand != .none, let demand = pending.add(demand) else { return }
        emitter(self, demand)
    }

    /// Stops delivery and drops the subscriber; idempotent, from any thread or inside `receive(_:)`.
    @usableFromInline
    func cancel() {
        guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Take the role (it is never given back) to drop the emission; if an emitter holds
        // it, that emitter drops it when it sees `terminated`.
        guard pending.add(.max(1)) != nil else { return }
        let dropped = emission.pointee.take()
        withExtendedLifetime(dropped) {}
    }

    /// The emitter's loop: delivers while there is demand, then gives the role back unless more
    /// arrived meanwhile. Inlined into the ``emitter`` closure, its one caller, to save a call.
    @inlinable @inline(__always)
    func emit(_ initial: Subscribers.Demand) {
        guard var current = emission.pointee.take() else { return }
        var taken = initial
        var demand = initial
        while true {
            while demand > 0 {
                if terminated.load(ordering: .acquiring) { return }
                let following = current.iterator.next()
                demand -= 1
                demand += current.downstream.receive(current.next)
                guard let following else {
                    finish(current.downstream)
                    return
                }
                current.next = following
            }
            emission.pointee = consume current  // moved: `Emission` is not copyable
            guard let more = pending.release(taken: taken) else { return }
            current = emission.pointee.take()!
            taken = more
            demand = more
        }
    }

    /// The last element was delivered: complete unless cancelled meanwhile (the role is kept: no more).
    @inlinable
    func finish(_ downstream: Downstream) {
        guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        downstream.receive(completion: completion)
    }

    /// Cancelled, or the last element delivered.
    @inlinable
    var isTerminated: Bool { terminated.load(ordering: .acquiring) }

    /// The sequence while the subscription is active, `"Sequence"` afterwards, as in Combine.
    @usableFromInline
    var description: String {
        terminated.load(ordering: .acquiring) ? "Sequence" : String(describing: sequence)
    }

    /// One child, `sequence`, as Combine shows it (empty once terminated).
    @usableFromInline
    var customMirror: Mirror {
        let shown: Any = terminated.load(ordering: .acquiring) ? [Elements.Element]() : sequence
        return Mirror(self, children: ["sequence": shown])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
