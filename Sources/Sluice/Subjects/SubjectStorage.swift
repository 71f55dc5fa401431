/// What a subject shares with its conduits, under one lock: the subscribers, the
/// completion once sent, the upstream subscriptions and (for `CurrentValueSubject`) the
/// current value.
///
/// The lock is a leaf: nothing is called while it is held, and conduits may take it while
/// holding their own lock (never the other way round).
///
/// ```
/// active ──send(completion:)──▶ completed   (sticky: later subscribers get the completion)
/// ```
@usableFromInline
final class SubjectStorage<Output, Failure: Error> {
    private struct State {
        var conduits: [SubjectConduit<Output, Failure>] = []
        var completion: Subscribers.Completion<Failure>?
        var upstreams: [any Subscription] = []
        var currentValue: Output?
    }

    private let state: Locked<State>

    @usableFromInline
    init(currentValue: Output?) {
        state = Locked(State(currentValue: currentValue))
    }

    @usableFromInline
    var currentValue: Output? {
        state.withLock { $0.currentValue }
    }

    /// The conduits to offer a value to, or `nil` once completed. With `setCurrent`, the
    /// value also becomes the current value (unless completed).
    @usableFromInline
    func conduitsForSend(_ value: Output, setCurrent: Bool) -> [SubjectConduit<Output, Failure>]? {
        state.withLock { state in
            guard state.completion == nil else { return nil }
            if setCurrent { state.currentValue = value }
            return state.conduits
        }
    }

    /// Sets the current value even after completion, as `CurrentValueSubject.value` does;
    /// returns the conduits to offer it to (none once completed).
    @usableFromInline
    func setCurrentValue(_ value: Output) -> [SubjectConduit<Output, Failure>] {
        state.withLock { state in
            state.currentValue = value
            return state.completion == nil ? state.conduits : []
        }
    }

    /// Adds a conduit, or returns the completion if the subject already completed.
    @usableFromInline
    func add(_ conduit: SubjectConduit<Output, Failure>) -> Subscribers.Completion<Failure>? {
        state.withLock { state in
            if let completion = state.completion { return completion }
            state.conduits.append(conduit)
            return nil
        }
    }

    func remove(_ conduit: SubjectConduit<Output, Failure>) {
        let removed = state.withLock { state -> SubjectConduit<Output, Failure>? in
            guard let index = state.conduits.firstIndex(where: { $0 === conduit }) else { return nil }
            return state.conduits.remove(at: index)
        }
        withExtendedLifetime(removed) {}
    }

    /// Completes; returns the conduits to finish, or `nil` if already completed.
    func complete(_ completion: Subscribers.Completion<Failure>) -> [SubjectConduit<Output, Failure>]? {
        state.withLock { state in
            guard state.completion == nil else { return nil }
            state.completion = completion
            defer { state.conduits = [] }
            return state.conduits
        }
    }

    func addUpstream(_ subscription: any Subscription) {
        state.withLock { $0.upstreams.append(subscription) }
    }

    func takeUpstreams() -> [any Subscription] {
        state.withLock { state in
            defer { state.upstreams = [] }
            return state.upstreams
        }
    }

    var conduitCount: Int { state.withLock { $0.conduits.count } }
}

// Safe: all mutable state is behind the lock.
extension SubjectStorage: @unchecked Sendable {}
