import Synchronization

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
    /// The action, retained, until the first ``cancel()`` exchanges it for `nil`: it runs once,
    /// and no lock is held while it runs.
    private let action: Atomic<Unmanaged<CancelAction>?>

    /// Creates a cancellable that runs `cancel` when canceled or deinitialized.
    public init(_ cancel: @escaping () -> Void) {
        action = Atomic(.passRetained(CancelAction(.closure(cancel))))
    }

    /// Creates a cancellable that cancels `canceller` when canceled or deinitialized.
    public init<C: Cancellable>(_ canceller: C) {
        action = Atomic(.passRetained(CancelAction(.cancellable(canceller))))
    }

    deinit {
        cancel()
    }

    /// Cancels the activity; later calls do nothing. Thread-safe.
    public func cancel() {
        action.exchange(nil, ordering: .acquiringAndReleasing)?.takeRetainedValue().run()
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

/// What an ``AnyCancellable`` runs once: its closure, or its canceller's `cancel()` (held as
/// it is, so that wrapping a subscriber or subscription makes no closure).
///
/// Safe to send across threads although neither is `Sendable`: `Cancellable.cancel()` is
/// thread-safe by contract (design rule 4), the closure only forwards to such a `cancel()` (or
/// to user code that Combine equally runs on the cancelling thread), and `AnyCancellable` hands
/// it out exactly once, by an atomic exchange. Nothing in it is mutable.
private final class CancelAction: @unchecked Sendable {
    enum Action {
        case closure(() -> Void)
        case cancellable(any Cancellable)
    }

    let action: Action

    init(_ action: Action) { self.action = action }

    func run() {
        switch action {
        case .closure(let run): run()
        case .cancellable(let canceller): canceller.cancel()
        }
    }
}
