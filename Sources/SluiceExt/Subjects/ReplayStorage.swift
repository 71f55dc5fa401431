import Sluice

/// The state of a ``ReplaySubject`` behind its one lock. An event that finds a subscriber's entry idle with
/// something deliverable elects the calling thread *deliverer*, which calls the subscriber unlocked (rule 6) and
/// comes back with the new demand until nothing is left. So a subscriber's signals never overlap (rule 3), and
/// a `send` from inside `receive` only adds to the entry.
///
/// ```text
///   idle ──value with demand / completion with empty backlog──▶ delivering ──back, nothing──▶ idle
///                                                                  │ back, completion next
///   cancel: the entry is removed (a deliverer out finds it gone)   ▼
///                                                               removed (released)
/// ```
/// A new entry starts `delivering`, owned by the subscribing thread until `receive(subscription:)` has
/// returned, so nothing reaches it before its subscription (rule 1). Inlinable so a `send` runs specialised.
@usableFromInline
final class ReplayStorage<Output, Failure: Error> {
    @usableFromInline typealias Receiver = ReplayReceiver<Output, Failure>

    @usableFromInline
    struct Entry {
        @usableFromInline let id: UInt64
        @usableFromInline let receiver: Receiver
        @usableFromInline var backlog: FIFO<Output>
        @usableFromInline var demand = Subscribers.Demand.none
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var delivering = true

        @inlinable
        init(id: UInt64, receiver: Receiver, backlog: FIFO<Output>, completion: Subscribers.Completion<Failure>?) {
            self.id = id
            self.receiver = receiver
            self.backlog = backlog
            self.completion = completion
        }
    }

    @usableFromInline
    enum Next {
        case value(Receiver, Output)
        case completion(Receiver, Subscribers.Completion<Failure>)
    }

    @usableFromInline
    struct State {
        @usableFromInline let bufferSize: Int
        @usableFromInline var buffer = FIFO<Output>()
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var entries: [Entry] = []
        @usableFromInline var upstreams: [UpstreamSubscription] = []
        /// Ids are never reused, unlike addresses.
        @usableFromInline var nextID: UInt64 = 0
        /// Kept between sends so the steady state allocates nothing; a concurrent `send` finds none and uses its own.
        @usableFromInline var spare: [(id: UInt64, receiver: Receiver)] = []

        @inlinable
        init(bufferSize: Int) {
            self.bufferSize = bufferSize
        }

        @inlinable
        func index(of id: UInt64) -> Int? {
            for index in entries.indices where entries[index].id == id { return index }
            return nil
        }

        /// If entry `index` is idle with something it can take, elects the caller deliverer; removes it to complete.
        @inlinable
        mutating func start(_ index: Int) -> Next? {
            guard !entries[index].delivering else { return nil }
            if entries[index].demand > .none, let value = entries[index].backlog.popFirst() {
                entries[index].demand -= 1
                entries[index].delivering = true
                return .value(entries[index].receiver, value)
            }
            if entries[index].backlog.isEmpty, let completion = entries[index].completion {
                return .completion(entries.remove(at: index).receiver, completion)
            }
            return nil
        }

        /// The deliverer is back with `more` demand: what it delivers next, or nil (idle, or cancelled meanwhile).
        @inlinable
        mutating func delivered(_ id: UInt64, more: Subscribers.Demand) -> Next? {
            guard let index = index(of: id) else { return nil }
            entries[index].demand += more
            entries[index].delivering = false
            return start(index)
        }
    }

    @usableFromInline let state: Locked<State>

    @inlinable
    init(bufferSize: Int) {
        state = Locked(State(bufferSize: bufferSize))
    }

    /// An idle entry with demand has an empty backlog, so what an entry claimed here delivers first is `value`.
    @inlinable
    func send(_ value: Output) {
        var claimed = state.withLock { state -> [(id: UInt64, receiver: Receiver)] in
            guard state.completion == nil else { return [] }
            if state.bufferSize > 0 {
                state.buffer.append(value)
                if state.buffer.count > state.bufferSize { _ = state.buffer.popFirst() }
            }
            var claimed: [(id: UInt64, receiver: Receiver)] = []
            swap(&claimed, &state.spare)
            for index in state.entries.indices {
                state.entries[index].backlog.append(value)
                if case .value(let receiver, _) = state.start(index) {
                    claimed.append((state.entries[index].id, receiver))
                }
            }
            return claimed
        }
        guard !claimed.isEmpty else { return }
        for (id, receiver) in claimed { drain(id, .value(receiver, value)) }
        // Emptied before it is kept: a kept receiver would keep its subscriber, and so this storage (a cycle).
        claimed.removeAll(keepingCapacity: true)
        state.withLock { state in
            if claimed.capacity > state.spare.capacity { swap(&claimed, &state.spare) }
        }
    }

    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        let claimed = state.withLock { state -> [(UInt64, Next)] in
            guard state.completion == nil else { return [] }
            state.completion = completion
            var claimed: [(UInt64, Next)] = []
            var index = state.entries.count - 1
            while index >= 0 {  // backwards: `start` may remove the entry
                state.entries[index].completion = completion
                let id = state.entries[index].id
                if let next = state.start(index) { claimed.append((id, next)) }
                index -= 1
            }
            return claimed.reversed()
        }
        for (id, next) in claimed { drain(id, next) }
    }

    @inlinable
    func send(subscription: any Subscription) {
        state.withLock { $0.upstreams.append(UpstreamSubscription(subscription)) }
        subscription.request(.unlimited)
    }

    @usableFromInline
    func cancelUpstreams() {
        let upstreams = state.withLock { state in
            defer { state.upstreams = [] }
            return state.upstreams
        }
        for upstream in upstreams { upstream.base.cancel() }
    }

    @inlinable
    func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let receiver = Receiver(subscriber)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries.append(Entry(id: id, receiver: receiver, backlog: state.buffer, completion: state.completion))
            return id
        }
        subscriber.receive(subscription: ReplayConduit(storage: self, id: id))
        // The subscribing thread owned the delivery until now (see the type's comment).
        drain(id, state.withLock { $0.delivered(id, more: .none) })
    }

    @inlinable
    func request(_ demand: Subscribers.Demand, for id: UInt64) {
        let next = state.withLock { state -> Next? in
            guard let index = state.index(of: id) else { return nil }
            state.entries[index].demand += demand
            return state.start(index)
        }
        drain(id, next)
    }

    /// The receiver (and so the subscriber) is released after unlocking.
    @inlinable
    func cancel(_ id: UInt64) {
        let removed = state.withLock { state -> Entry? in
            state.index(of: id).map { state.entries.remove(at: $0) }
        }
        withExtendedLifetime(removed) {}
    }

    @inlinable
    func drain(_ id: UInt64, _ next: Next?) {
        var next = next
        while let current = next {
            switch current {
            case .value(let receiver, let value):
                let more = receiver.receiveValue(value)
                next = state.withLock { $0.delivered(id, more: more) }
            case .completion(let receiver, let completion):
                receiver.receiveCompletion(completion)
                next = nil
            }
        }
    }

    /// Test hook: the subscribers it holds.
    var entryCount: Int { state.withLock { $0.entries.count } }
}

// Sendable where `Output` is: every mutable part is in `state`, behind the lock.
extension ReplayStorage: Sendable where Output: Sendable {}
extension ReplayStorage.State: Sendable where Output: Sendable {}
extension ReplayStorage.Entry: Sendable where Output: Sendable {}
