/// A type-erasing cancellable object that executes a provided closure when canceled.
///
/// The closure runs exactly once: on the first ``cancel()``, or when the instance is
/// deinitialized, whichever comes first. Keep an `AnyCancellable` for as long as the
/// subscription should live.
///
/// <!-- snippet: AnyCancellableStore -->
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// var received: [Int] = []
/// var cancellables = Set<AnyCancellable>()
/// subject.sink { received.append($0) }.store(in: &cancellables)
/// subject.send(1)
/// cancellables.removeAll()   // deinitialized, so cancelled
/// subject.send(2)            // not delivered: received == [1]
/// ```
public final class AnyCancellable: Cancellable, Hashable, Sendable {
    private let action: Locked<CancelAction?>

    /// Creates a cancellable that runs `cancel` when canceled or deinitialized.
    public init(_ cancel: @escaping () -> Void) {
        action = Locked(CancelAction(cancel))
    }

    /// Creates a cancellable that cancels `canceller` when canceled or deinitialized.
    public init<C: Cancellable>(_ canceller: C) {
        action = Locked(CancelAction(canceller.cancel))
    }

    deinit {
        cancel()
    }

    /// Cancels the activity; later calls do nothing. Thread-safe.
    public func cancel() {
        // Take the action out under the lock, run it after: it runs once, and never under the lock.
        action.withLock { $0.take() }?.run()
    }

    /// Stores this instance in the specified collection.
    public final func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this instance in the specified set.
    public final func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Two instances are equal when they are the same instance.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the identity of the instance.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension AnyCancellable: CustomCombineIdentifierConvertible {}

/// The closure an ``AnyCancellable`` runs once.
///
/// Safe to send across threads although the closure is not `@Sendable`: `Cancellable.cancel()`
/// is thread-safe by contract (design rule 4), the closure only forwards to such a `cancel()`
/// (or to user code that Combine equally runs on the cancelling thread), and `AnyCancellable`
/// hands it out exactly once, under its lock.
private struct CancelAction: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
