import Synchronization

/// How a conduit reaches its subscriber: closures made in the subject's inlinable `receive(subscriber:)`,
/// so specialised for the concrete subscriber in the client.
///
/// Unchecked: the subscriber is not `Sendable`, yet is called from whichever thread sends (Combine's
/// contract). Only the one deliverer ``ConduitState`` elects under the subject's lock calls it (and
/// `deliveryEnded`, after its last call), so signals never overlap (rule 3); each hand-over goes through
/// that lock or the `delivery` flag's acquire/release, ordering one deliverer's accesses before the next's.
/// The flag and the slot hint are atomic; nothing else is mutable.
@usableFromInline
final class SubjectReceiver<Output, Failure: Error>: @unchecked Sendable {
    /// Lets a deliverer finish without the lock: 0 idle, 1 delivering, 2 delivering with news (a value
    /// queued, a completion, a cancel). Written under the subject's lock, except the deliverer's 1 → 0.
    @usableFromInline let delivery = Atomic<UInt8>(0)
    @usableFromInline let slot = SlotHint()

    @usableFromInline let receiveValue: (Output) -> Subscribers.Demand
    @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    /// For a subscriber without its own gate: tells it that the delivery in progress at its cancel has
    /// returned (``DeferredCancelSubscription``); `nil` for any other.
    @usableFromInline let deliveryEnded: (() -> Void)?
    /// The subscriber whose cancel may ask for ``deliveryEnded``; `nil` exactly when `deliveryEnded` is.
    @usableFromInline let owner: ObjectIdentifier?
    /// Only for the conduit's mirror (`downstream`), never called.
    @usableFromInline let subscriber: Any

    /// A ``SubjectDeliveredSubscriber`` (a sink, alone or behind a multicast) is called through its entries,
    /// the value one ungated: this subject is its values' only caller, and its cancel asks the subject
    /// whether a delivery is out before it frees anything. The cast folds away in the specialised code.
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

    /// The deliverer, done with no demand to add, leaves without the lock; `false` if there is news.
    @inlinable func tryLeave() -> Bool {
        delivery.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged
    }

    /// Under the lock, while `delivering`: tells the deliverer to come back; `false` if it already left.
    @inlinable func notifyDeliverer() -> Bool {
        // Only the deliverer changes the flag outside the lock, and only 1 → 0: a 0 or a 2 read here is
        // settled, so a plain load spares the read-modify-write.
        switch delivery.load(ordering: .acquiring) {
        case 0: return false
        case 2: return true
        default:
            let (exchanged, original) = delivery.compareExchange(
                expected: 1, desired: 2, ordering: .acquiringAndReleasing)
            return exchanged || original == 2
        }
    }

    /// For a claimed receiver not yet called: whether its conduit changed since (check under the lock).
    @inlinable var hasNews: Bool { delivery.load(ordering: .acquiring) == 2 }

    /// Under the lock: whether the deliverer is still out.
    @inlinable var isDelivering: Bool { delivery.load(ordering: .acquiring) != 0 }

    /// Under the lock: a deliverer goes out (`hasNews`: it must come back under the lock).
    @inlinable func setDelivering(hasNews: Bool) { delivery.store(hasNews ? 2 : 1, ordering: .releasing) }

    /// Under the lock: the deliverer came back and nothing is left.
    @inlinable func setIdle() { delivery.store(0, ordering: .releasing) }

    @inlinable func receive(_ value: Output) -> Subscribers.Demand { receiveValue(value) }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) { receiveCompletion(completion) }
}

/// The deliverer's unretained reference to a conduit's ``SubjectReceiver``: a `send` costs no retain/release.
/// Safe: made only under the subject's lock for the elected deliverer, and nothing releases the receiver of a
/// `delivering` conduit (cancel only marks it; the deliverer releases it on return). Used only until the
/// deliverer reports back with `delivered(more:)`.
@usableFromInline
struct BorrowedReceiver<Output, Failure: Error> {
    @usableFromInline let reference: Unmanaged<SubjectReceiver<Output, Failure>>

    @inlinable init(_ receiver: SubjectReceiver<Output, Failure>) {
        reference = .passUnretained(receiver)
    }

    @inlinable func receive(_ value: Output) -> Subscribers.Demand {
        reference._withUnsafeGuaranteedRef { $0.receive(value) }
    }

    /// Read under the subject's lock.
    @inlinable var slot: Int {
        reference._withUnsafeGuaranteedRef { $0.slot.value }
    }

    @inlinable var hasNews: Bool {
        reference._withUnsafeGuaranteedRef { $0.hasNews }
    }

    /// After it succeeds, this reference is not used again.
    @inlinable func tryLeave() -> Bool {
        reference._withUnsafeGuaranteedRef { $0.tryLeave() }
    }

    @inlinable func isSame(as receiver: SubjectReceiver<Output, Failure>?) -> Bool {
        reference.toOpaque() == receiver.map { Unmanaged.passUnretained($0).toOpaque() }
    }
}

// Sendable: an unretained reference to a Sendable receiver.
extension BorrowedReceiver: Sendable {}
