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
    /// Whether the first ``cancel()`` has taken ``action``.
    private let taken = Atomic<Bool>(false)

    /// What the first ``cancel()`` runs, until it takes it (and lets go of what it holds).
    ///
    /// Unchecked because only one thread ever touches it after `init`: the one whose exchange
    /// of ``taken`` found `false` (acquiring the write `init` made), which reads it and sets
    /// it to `nil`; no other code reads it. Kept inline rather than in an atomic reference to
    /// a box, which cost every `sink` one more allocation (the row "Just(i) → sink").
    nonisolated(unsafe) private var action: CancelAction?

    /// Creates a cancellable that runs `cancel` when canceled or deinitialized.
    ///
    /// Made outside any actor, `cancel` runs on the thread that cancels, as Combine's. Made in
    /// actor-isolated code (`isolation` defaults to the caller's actor), it runs on that actor:
    /// at once when the main actor's cancellable is cancelled on the main actor, otherwise in
    /// a task on the actor, so ``cancel()`` may return before it has run. Code whose closure
    /// only forwards to thread-safe cancels (a custom publisher, a scheduler) passes
    /// `isolation: nil` to keep it on the cancelling thread wherever it is made.
    public init(isolation: (any Actor)? = #isolation, _ cancel: @escaping () -> Void) {
        action = isolation.map { .isolatedClosure(cancel, $0) } ?? .closure(cancel)
    }

    /// Creates a cancellable that cancels `canceller` when canceled or deinitialized.
    public init<C: Cancellable>(_ canceller: C) {
        action = .cancellable(canceller)
    }

    deinit {
        cancel()
    }

    /// Cancels the activity; later calls do nothing. Thread-safe.
    public func cancel() {
        guard !taken.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = self.action
        self.action = nil
        action?.run()
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
/// None of these is `Sendable`, yet `AnyCancellable` is: `Cancellable.cancel()` is thread-safe
/// by contract (design rule 4); a closure made outside any actor belongs to no isolation
/// (Combine equally runs it on the cancelling thread); one made on an actor runs only isolated
/// to that actor (see ``run()``); and `AnyCancellable` hands the action out exactly once.
private enum CancelAction {
    case closure(() -> Void)
    /// A closure written in `actor`'s isolation.
    case isolatedClosure(() -> Void, any Actor)
    case cancellable(any Cancellable)

    func run() {
        switch self {
        case .closure(let run):
            run()
        case .isolatedClosure(let run, let actor):
            if actor === MainActor.shared && isOnMainActorExecutor() {
                run()
            } else {
                let closure = IsolatedCancelClosure(run: run)
                Task { await closure.run(on: actor) }
            }
        case .cancellable(let canceller):
            canceller.cancel()
        }
    }
}

/// A cancellable's closure written on `actor`, on its way to a task that runs it there.
///
/// Unchecked because the closure belongs to that actor's isolation and
/// ``run(on:)`` is the only thing that calls it, isolated to the actor it was written on
/// (``CancelAction/run()`` passes that one), once.
private struct IsolatedCancelClosure: @unchecked Sendable {
    let run: () -> Void

    func run(on actor: isolated any Actor) { run() }
}
