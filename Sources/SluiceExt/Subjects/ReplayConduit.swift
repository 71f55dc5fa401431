import Sluice

/// How a ``ReplaySubject`` reaches one subscriber: its two callbacks.
///
/// The one unsafe escape of the replay subject, and why it is safe: the subscriber is not
/// `Sendable`, yet it is called from whichever thread sends (Combine's contract for subjects).
/// It is only ever called by the one deliverer that `ReplayStorage` elects under the
/// subject's lock, so its calls never overlap (rule 3), and each hand-over between deliverers
/// goes through that lock, which orders one deliverer's calls before the next one's. Both
/// properties are immutable.
@usableFromInline
final class ReplayReceiver<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline let receiveValue: (Output) -> Subscribers.Demand
    @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    init<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receiveValue = { subscriber.receive($0) }
        receiveCompletion = { subscriber.receive(completion: $0) }
    }
}

/// One subscriber's subscription to a ``ReplaySubject``: it forwards `request` and `cancel` to
/// the subject's storage, where the subscriber's state is. Cancel lets go of the storage.
@usableFromInline
final class ReplayConduit<Output, Failure: Error>: Subscription, CustomStringConvertible {
    let storage: Locked<ReplayStorage<Output, Failure>?>
    /// The subscriber's entry in the storage.
    let id: UInt64

    @usableFromInline
    init(storage: ReplayStorage<Output, Failure>, id: UInt64) {
        self.storage = Locked(storage)
        self.id = id
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        storage.withLock { $0 }?.request(demand, for: id)
    }

    /// Every cancel removes the entry before it returns, a second one too: a cancel that
    /// returned at once because another was under way could return while the entry still
    /// received values (rule 4). Removing is idempotent (the entry is found by its id).
    @usableFromInline
    func cancel() {
        guard let storage = storage.withLock({ $0 }) else { return }
        storage.cancel(id)
        self.storage.withLock { $0 = nil }
    }

    /// `"ReplaySubject"`, as the subject names its subscriptions.
    @usableFromInline var description: String { "ReplaySubject" }
}

// Sendable by construction: the one mutable reference is behind a lock.
extension ReplayConduit: Sendable where Output: Sendable {}
