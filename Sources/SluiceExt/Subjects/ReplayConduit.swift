import Sluice

/// How a ``ReplaySubject`` reaches one subscriber. `@unchecked Sendable`: the subscriber is not `Sendable`,
/// yet is called from whichever thread sends; only the one deliverer `ReplayStorage` elects under the lock
/// calls it (rule 3), and each hand-over goes through that lock, which orders the calls. Both are immutable.
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

/// One subscriber's subscription to a ``ReplaySubject``; the subscriber's state is in the storage.
@usableFromInline
final class ReplayConduit<Output, Failure: Error>: Subscription, CustomStringConvertible {
    let storage: Locked<ReplayStorage<Output, Failure>?>
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

    /// Every cancel, a second one too, removes the entry before it returns, so none returns while the entry
    /// still receives values (rule 4). Removing is idempotent.
    @usableFromInline
    func cancel() {
        guard let storage = storage.withLock({ $0 }) else { return }
        storage.cancel(id)
        self.storage.withLock { $0 = nil }
    }

    @usableFromInline var description: String { "ReplaySubject" }
}

// Sendable by construction: the one mutable reference is behind a lock.
extension ReplayConduit: Sendable where Output: Sendable {}
