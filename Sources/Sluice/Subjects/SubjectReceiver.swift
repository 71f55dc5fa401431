import Synchronization

/// How a conduit reaches its subscriber: two closures made in the subject's inlinable
/// `receive(subscriber:)`, so specialised for the concrete subscriber in the client (a call
/// through a vtable or witness table would run the subscriber's generic, unspecialised code).
///
/// The subjects' one unsafe escape, and why it is safe: the subscriber it holds is not
/// `Sendable`, yet it is called from whichever thread sends (that is Combine's contract).
/// It is only ever called by the one deliverer that ``ConduitState`` elects under the
/// subject's lock, so its signals never overlap (rule 3), and each hand-over between
/// deliverers goes through that lock (or the `delivery` flag's acquire/release), which
/// orders one deliverer's accesses before the next one's. `deliveryEnded` reaches the
/// subscriber the same way: only the deliverer calls it, after its last call has returned.
/// The `delivery` flag and the slot hint are atomic; nothing else in it is mutable.
@usableFromInline
final class SubjectReceiver<Output, Failure: Error>: @unchecked Sendable {
    /// Lets a deliverer finish without the lock: 0 idle, 1 delivering, 2 delivering and
    /// news for the deliverer (a value queued, a completion or a cancel) under the lock.
    /// Written under the subject's lock, except for the deliverer's 1 → 0 (``tryLeave()``).
    @usableFromInline let delivery = Atomic<UInt8>(0)
    /// Where its conduit's entry is in the subject's slots.
    @usableFromInline let slot = SlotHint()

    /// The subscriber's `receive(_:)`.
    @usableFromInline let receiveValue: (Output) -> Subscribers.Demand
    /// The subscriber's `receive(completion:)`.
    @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    /// For a subscriber called without its own gate: what tells it that the delivery in
    /// progress at its cancel has returned (see ``DeferredCancelSubscription``); `nil` for any
    /// other subscriber.
    @usableFromInline let deliveryEnded: (() -> Void)?
    /// The subscriber whose cancel may ask for ``deliveryEnded`` (see
    /// ``DeferredCancelSubscription``); `nil` exactly when `deliveryEnded` is.
    @usableFromInline let owner: ObjectIdentifier?
    /// The subscriber itself, only for the conduit's mirror (`downstream`), never called.
    @usableFromInline let subscriber: Any

    /// Captures `subscriber`; called in client code, so that the closures are specialised.
    ///
    /// A ``SubjectDeliveredSubscriber`` (a sink, alone or behind a multicast) is called
    /// through its entries, the value one ungated: this subject is then the only caller of its values (it was
    /// handed this subject's subscription), and its cancel asks the subject whether a delivery
    /// is out before it frees anything. The cast folds away in the specialised code.
    @inlinable
    init<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
        if let delivered = subscriber as? any SubjectDeliveredSubscriber,
            let entries = Self.entries(of: delivered)
        {
            receiveValue = entries.receive
            receiveCompletion = entries.receiveCompletion
            deliveryEnded = entries.deliveryEnded
            owner = entries.owner
        } else {
            receiveValue = { subscriber.receive($0) }
            receiveCompletion = { subscriber.receive(completion: $0) }
            deliveryEnded = nil
            owner = nil
        }
    }

    @inlinable
    static func entries<D: SubjectDeliveredSubscriber>(of subscriber: D) -> SubjectEntries<Output, Failure>? {
        subscriber.makeSubjectEntries() as? SubjectEntries<Output, Failure>
    }

    /// The deliverer is done, with no demand to add: leaves without the lock unless there is
    /// news. Returns `false` if it must come back under the lock.
    @inlinable func tryLeave() -> Bool {
        delivery.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged
    }

    /// Under the lock, while the phase is `delivering`: tells the deliverer to come back.
    /// Returns `false` if it already left (the conduit is idle).
    @inlinable func notifyDeliverer() -> Bool {
        // Only the deliverer changes the flag outside the lock, and only 1 → 0: a 0 or a 2
        // read here is settled, so a plain load spares the read-modify-write.
        switch delivery.load(ordering: .acquiring) {
        case 0: return false
        case 2: return true
        default:
            let (exchanged, original) = delivery.compareExchange(
                expected: 1, desired: 2, ordering: .acquiringAndReleasing)
            return exchanged || original == 2
        }
    }

    /// For a claimed receiver not yet called: whether something happened to its conduit
    /// since the claim (a value queued, a completion, a cancel), to be checked under the lock.
    @inlinable var hasNews: Bool { delivery.load(ordering: .acquiring) == 2 }

    /// Under the lock: whether the deliverer is still out.
    @inlinable var isDelivering: Bool { delivery.load(ordering: .acquiring) != 0 }

    /// Under the lock: a deliverer goes out (`hasNews`: it must come back under the lock).
    @inlinable func setDelivering(hasNews: Bool) { delivery.store(hasNews ? 2 : 1, ordering: .releasing) }

    /// Under the lock: the deliverer came back and nothing is left.
    @inlinable func setIdle() { delivery.store(0, ordering: .releasing) }

    /// Delivers a value; returns the demand the subscriber adds.
    @inlinable func receive(_ value: Output) -> Subscribers.Demand { receiveValue(value) }

    /// Delivers the completion.
    @inlinable func receive(completion: Subscribers.Completion<Failure>) { receiveCompletion(completion) }
}

/// The deliverer's unretained reference to a conduit's ``SubjectReceiver``, so that a `send`
/// costs no retain/release of it.
///
/// Safe: it is made only under the subject's lock for the thread that the state machine
/// elects deliverer (phase `delivering`), and while a conduit is `delivering` nothing
/// releases its receiver: cancel then only marks the conduit, and the deliverer itself
/// releases the receiver (after unlocking) when it comes back. The deliverer uses it only
/// until it reports back with `delivered(more:)`.
@usableFromInline
struct BorrowedReceiver<Output, Failure: Error> {
    @usableFromInline let reference: Unmanaged<SubjectReceiver<Output, Failure>>

    @inlinable init(_ receiver: SubjectReceiver<Output, Failure>) {
        reference = .passUnretained(receiver)
    }

    @inlinable func receive(_ value: Output) -> Subscribers.Demand {
        reference._withUnsafeGuaranteedRef { $0.receive(value) }
    }

    /// See ``SubjectReceiver/slot``; read under the subject's lock.
    @inlinable var slot: Int {
        reference._withUnsafeGuaranteedRef { $0.slot.value }
    }

    /// See ``SubjectReceiver/hasNews``.
    @inlinable var hasNews: Bool {
        reference._withUnsafeGuaranteedRef { $0.hasNews }
    }

    /// See ``SubjectReceiver/tryLeave()``; after it succeeds, this reference is not used again.
    @inlinable func tryLeave() -> Bool {
        reference._withUnsafeGuaranteedRef { $0.tryLeave() }
    }

    @inlinable func isSame(as receiver: SubjectReceiver<Output, Failure>?) -> Bool {
        reference.toOpaque() == receiver.map { Unmanaged.passUnretained($0).toOpaque() }
    }
}

// Sendable by construction: an unretained reference to a Sendable receiver.
extension BorrowedReceiver: Sendable {}
