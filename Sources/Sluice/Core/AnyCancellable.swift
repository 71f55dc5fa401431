import Synchronization

/// A type-erasing cancellable object that executes a provided closure when canceled.
///
/// The closure runs exactly once: on the first ``cancel()`` or at deinitialization, whichever is first.
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
    private let taken = Atomic<Bool>(false)

    /// What the first ``cancel()`` runs. Unchecked: after `init` only the thread whose exchange of
    /// ``taken`` found `false` (acquiring `init`'s write) touches it. Inline, not boxed: one less allocation.
    nonisolated(unsafe) private var action: CancelAction?

    /// Creates a cancellable that runs `cancel` when canceled or deinitialized.
    ///
    /// Made outside any actor, `cancel` runs on the cancelling thread, as Combine's. Made on an actor
    /// (`isolation` defaults to the caller's), it runs there: at once for the main actor's when cancelled on
    /// the main actor, else in a task, so ``cancel()`` may return first. Pass `isolation: nil` to keep on the
    /// cancelling thread a closure that only forwards to thread-safe cancels (a publisher, a scheduler).
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
        // Moved out, not copied: a copy of an `any Cancellable` goes through its value witnesses
        // (the "Just(i) → sink" row).
        action.take()?.run()
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

/// What an ``AnyCancellable`` runs once: its closure, or its canceller's `cancel()` (held as is: no
/// closure). Not `Sendable`, yet `AnyCancellable` is: `Cancellable.cancel()` is thread-safe by contract
/// (design rule 4); a closure made outside any actor belongs to no isolation (Combine too runs it on the
/// cancelling thread); one made on an actor runs only isolated to it (see ``run()``); and it runs once.
private enum CancelAction {
    case closure(() -> Void)
    case isolatedClosure(() -> Void, any Actor)
    case cancellable(any Cancellable)

    consuming func run() {
        switch consume self {
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

/// A cancellable's closure written on an actor, on its way to a task that runs it there. Unchecked: only
/// ``run(on:)`` calls it, once, isolated to the actor it was written on (``CancelAction/run()`` passes it).
private struct IsolatedCancelClosure: @unchecked Sendable {
    let run: () -> Void

    func run(on actor: isolated any Actor) { run() }
}
