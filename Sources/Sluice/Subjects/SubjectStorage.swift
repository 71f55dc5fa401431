/// What a subject shares with its conduits, under ONE lock: the subscribers' state machines, the
/// completion, the upstreams and (for `CurrentValueSubject`) the current value. One lock, so that one
/// acquisition both checks the subject and claims delivery for every idle subscriber with demand (the
/// deliverer leaves with one compare-exchange if nothing happened meanwhile: ``SubjectReceiver/tryLeave()``).
/// Nothing is called while it is held (rule 6): the deliverer calls the subscriber after unlocking.
///
/// ```text
/// active ──send(completion:)──▶ completed   (sticky: later subscribers get the completion)
/// ```
/// A conduit's entry lives here from subscription until it terminates (cancelled, or its completion handed
/// to the deliverer); absent reads as terminated. Entries keep subscription order: a removed one leaves a
/// hole, compacted once holes are half the slots (O(1) amortised). Conduit and receiver know the slot.
@usableFromInline
final class SubjectStorage<Output, Failure: Error> {
    @usableFromInline typealias Receiver = SubjectReceiver<Output, Failure>
    @usableFromInline typealias Machine = ConduitState<Output, Failure>
    @usableFromInline typealias Borrowed = BorrowedReceiver<Output, Failure>

    @usableFromInline
    struct Entry {
        @usableFromInline let conduit: SubjectConduit<Output, Failure>
        @usableFromInline var machine: Machine

        @inlinable
        init(conduit: SubjectConduit<Output, Failure>, machine: Machine) {
            self.conduit = conduit
            self.machine = machine
        }

        /// Tells the conduit and the receiver their entry's slot (``SlotHint/absent``: removed).
        @inlinable
        func hint(_ slot: Int) {
            conduit.slot.value = slot
            machine.receiver?.slot.value = slot
        }
    }

    @usableFromInline
    struct State {
        /// In subscription order; `nil` is a hole. Fewer than half are holes, so one slot is never a hole.
        @usableFromInline var entries: [Entry?] = []
        @usableFromInline var holes = 0
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var upstreams: [UpstreamSubscription] = []
        /// The upstreams are asked for `.unlimited` as they come: from the start for a `CurrentValueSubject`,
        /// once some subscriber has requested demand for a `PassthroughSubject`.
        @usableFromInline var upstreamsOpen: Bool
        @usableFromInline var currentValue: Output?
        /// The buffer a multi-subscriber `send` collects its receivers in, kept between sends (emptied by the
        /// next, never read stale) so the steady state allocates nothing. Taken under the lock and given back
        /// when done; a concurrent `send` meanwhile finds it empty and uses its own.
        @usableFromInline var spare: [Borrowed] = []
        /// `@Published`: the sets sent so far, numbering them in delivery order (``PublishedBox/set(_:)``).
        @usableFromInline var publishedSets: UInt64 = 0

        @usableFromInline
        init(currentValue: Output?) {
            self.currentValue = currentValue
            upstreamsOpen = currentValue != nil
        }

        @inlinable var subscriberCount: Int { entries.count - holes }

        @inlinable var liveEntries: some Sequence<Entry> { entries.lazy.compactMap { $0 } }

        /// The entry in `slot`, which must hold one; in place.
        @inlinable
        subscript(slot: Int) -> Entry {
            get { entries[slot]! }
            _modify { yield &entries[slot]! }
        }

        @inlinable
        mutating func append(_ entry: consuming Entry) {
            entry.hint(entries.count)
            entries.append(entry)
        }

        /// Removes the entry in `slot` and returns it; O(1) amortised.
        @inlinable
        mutating func remove(at slot: Int) -> Entry {
            let entry = entries[slot].take()!
            entry.hint(SlotHint.absent)
            holes += 1
            if holes * 2 >= entries.count { compact() }
            return entry
        }

        /// Keeps only `kept`, in that order.
        @inlinable
        mutating func replace(with kept: [Entry]) {
            for slot in entries.indices { entries[slot]?.hint(SlotHint.absent) }
            entries = []
            holes = 0
            for entry in kept { append(entry) }
        }

        /// Closes the holes, keeping the order, and tells the moved entries their new slots.
        @inlinable
        mutating func compact() {
            var next = 0
            for slot in entries.indices {
                guard let entry = entries[slot] else { continue }
                if slot != next {
                    entry.hint(next)
                    entries[next] = entry
                }
                next += 1
            }
            entries.removeLast(entries.count - next)
            holes = 0
        }

        /// The slot of the entry whose deliverer holds `receiver` (unique while held); `nil` if it is gone.
        @inlinable
        func index(of receiver: Borrowed) -> Int? {
            let slot = receiver.slot
            return slot == SlotHint.absent ? nil : slot
        }

        /// Claimed receivers, in the ``spare`` buffer; out of line: the one-subscriber `send` stays small.
        @inlinable @inline(never)
        mutating func offerToAll(_ value: Output, holds: inout Bool) -> [Borrowed] {
            var receivers: [Borrowed] = []
            swap(&receivers, &spare)
            receivers.removeAll(keepingCapacity: true)  // unique by now: no copy
            offer(value, holds: &holds) { receivers.append($0) }
            return receivers
        }

        @inlinable
        mutating func offerToFew(_ value: Output, holds: inout Bool) -> Few {
            var receivers = Few()
            offer(value, holds: &holds) { receivers.append($0) }
            return receivers
        }

        /// Sets `holds` if `value` was queued over the bound for some subscriber.
        @inlinable
        mutating func offer(_ value: Output, holds: inout Bool, claim: (Borrowed) -> Void) {
            for index in entries.indices where entries[index] != nil {
                if let receiver = self[index].machine.offer(value) {
                    claim(receiver)
                } else if self[index].machine.delivery.isOverBound {
                    holds = true
                }
            }
        }

        @inlinable
        func index(of conduit: SubjectConduit<Output, Failure>) -> Int? {
            let slot = conduit.slot.value
            return slot == SlotHint.absent ? nil : slot
        }
    }

    /// What a `send` claimed under the lock: the receivers this thread now delivers to.
    @usableFromInline
    enum Claim {
        case nothing
        case one(Borrowed)
        case few(Few)
        case many([Borrowed])
    }

    /// The receivers a `send` to a few subscribers claimed, inline (unretained references), so the common
    /// fan-out (a `share()`, a handful of sinks) touches no array.
    @usableFromInline
    struct Few {
        @usableFromInline static var capacity: Int { 4 }
        @usableFromInline var count = 0
        @usableFromInline var slots: (Borrowed?, Borrowed?, Borrowed?, Borrowed?) = (nil, nil, nil, nil)

        @inlinable init() {}

        @inlinable
        mutating func append(_ receiver: Borrowed) {
            switch count {
            case 0: slots.0 = receiver
            case 1: slots.1 = receiver
            case 2: slots.2 = receiver
            default: slots.3 = receiver
            }
            count += 1
        }

        @inlinable
        subscript(position: Int) -> Borrowed {
            switch position {
            case 0: slots.0!
            case 1: slots.1!
            case 2: slots.2!
            default: slots.3!
            }
        }
    }

    @usableFromInline
    enum DeliveryAction {
        case stop
        case deliver(Borrowed, Output)
        /// Deliver the completion, then detach the conduit (with the demand it had).
        case complete(Receiver, Subscribers.Completion<Failure>, SubjectConduit<Output, Failure>, Subscribers.Demand)
        /// Cancelled during the delivery: release the entry (it holds the subscriber).
        case release(Entry)
    }

    @usableFromInline let state: Locked<State>
    /// `CurrentValueSubject`: each subscriber gets the current value with its first demand.
    @usableFromInline let deliversCurrentValue: Bool
    @usableFromInline let kind: SubjectKind

    @usableFromInline var description: String { kind.subscriptionName }

    /// A `PassthroughSubject`'s storage (`currentValue == nil`) or a `CurrentValueSubject`'s; `kind` names
    /// the subjects behind `@Published` and `ObservableObject`.
    @usableFromInline
    init(currentValue: Output?, kind: SubjectKind? = nil) {
        state = Locked(State(currentValue: currentValue))
        deliversCurrentValue = currentValue != nil
        self.kind = kind ?? (currentValue == nil ? .passthrough : .currentValue)
    }

    @inlinable
    var currentValue: Output? {
        state.withLock { $0.currentValue }
    }

    /// Sends `value` to every subscriber with demand; with `setCurrent` it becomes the current value, even
    /// after completion with `evenIfCompleted` (delivering nothing then). `admits` runs under the lock first:
    /// `false` sends nothing (a connection's last value racing with its cancel, ``SubjectSubscriber``);
    /// `@Published` numbers its sets there. If the value queued over the bound for another thread's
    /// deliverer, the caller waits after delivering what it claimed (``holdSender()``).
    @inlinable
    func send(
        _ value: Output,
        setCurrent: Bool,
        evenIfCompleted: Bool = false,
        admits: (inout State) -> Bool = { _ in true }
    ) {
        let (claim, holds) = state.withLock { state -> (Claim, Bool) in
            guard evenIfCompleted || state.completion == nil, admits(&state) else { return (.nothing, false) }
            if setCurrent { state.currentValue = value }
            switch state.entries.count {
            case 0:
                return (.nothing, false)
            case 1:  // never a hole
                guard let receiver = state[0].machine.offer(value) else {
                    return (.nothing, state[0].machine.delivery.isOverBound)
                }
                return (.one(receiver), false)
            case 2...Few.capacity:
                var holds = false
                let few = state.offerToFew(value, holds: &holds)
                return (.few(few), holds)
            default:
                var holds = false
                let many = state.offerToAll(value, holds: &holds)
                return (.many(many), holds)
            }
        }
        switch claim {
        case .nothing:
            break
        case .one(let receiver):
            drain(receiver, after: receiver.receive(value))
        case .few(let receivers):
            deliver(value, count: receivers.count) { receivers[$0] }
        case .many(let receivers):
            deliver(value, to: receivers)
        }
        if holds { holdSender() }
    }

    /// The bounded hand-over's wait (``SerialDelivery``) while a subscriber's queue is over the bound, unless
    /// this thread is delivering to one of this subject's subscribers: a re-entrant `send` must never wait,
    /// as that deliverer (or one waiting on it) could wait for it in turn.
    @inlinable @inline(never)
    func holdSender() {
        state.holdSender { state, sender in
            var full: Int?
            for index in state.entries.indices {
                guard let machine = state.entries[index]?.machine else { continue }
                if machine.isDelivering(on: sender) { return nil }
                if full == nil, machine.delivery.mustHold(sender) { full = index }
            }
            guard let full else { return nil }
            return state[full].machine.delivery.holdCondition(for: sender)
        }
    }

    /// Out of line (but specialised), so that the one-subscriber `send` stays small.
    @inlinable @inline(never)
    func deliver(_ value: Output, count: Int, receiverAt: (Int) -> Borrowed) {
        for position in 0..<count {
            let receiver = receiverAt(position)
            // An earlier `receive` may have cancelled this one; a cancel always raises the news flag: no news,
            // no lock.
            if position > 0, receiver.hasNews, let cancelled = takeIfCancelled(receiver) {
                release(cancelled)
                continue
            }
            drain(receiver, after: receiver.receive(value))
        }
    }

    /// Delivers, then gives the buffer back for the next `send`.
    @inlinable @inline(never)
    func deliver(_ value: Output, to receivers: [Borrowed]) {
        deliver(value, count: receivers.count) { receivers[$0] }
        var buffer = receivers  // emptied by the next `send` that takes it, once unique
        state.withLock { state in
            if buffer.capacity > state.spare.capacity { swap(&buffer, &state.spare) }
        }
        // `buffer` (the smaller one) is released here, after unlocking.
    }

    /// After unlocking, for a subscriber cancelled during a delivery: detaches its conduit (a cancel leaves
    /// it attached while a delivery is out, so a later cancel still learns of it), tells the subscriber the
    /// delivery ended if its cancel asked, then drops the entry and the subscriber.
    @inlinable
    func release(_ entry: consuming Entry) {
        entry.conduit.detach(demandAtEnd: entry.machine.demand)
        if entry.machine.reportsDeliveryEnd { entry.machine.receiver?.deliveryEnded?() }
    }

    /// For a claimed receiver not yet called: its entry, removed, if it was cancelled since the claim.
    @inlinable
    func takeIfCancelled(_ receiver: Borrowed) -> Entry? {
        state.withLock { state in
            guard let index = state.index(of: receiver), state[index].machine.cancelledWhileDelivering else {
                return nil
            }
            return state.remove(at: index)
        }
    }

    @inlinable
    func drain(_ receiver: Borrowed, after more: Subscribers.Demand) {
        var receiver = receiver
        var more = more
        while true {
            // Fast path: nothing happened meanwhile and no demand to add, so no lock.
            if more == .none, receiver.tryLeave() { return }
            switch delivered(receiver, more: more) {
            case .stop:
                return
            case .deliver(let next, let value):
                receiver = next
                more = next.receive(value)
            case .complete(let receiver, let completion, let conduit, let demand):
                receiver.receive(completion: completion)
                conduit.detach(demandAtEnd: demand)
                return
            case .release(let entry):
                release(entry)
                return
            }
        }
    }

    @inlinable
    func delivered(_ receiver: Borrowed, more: Subscribers.Demand) -> DeliveryAction {
        state.withLock { state in
            guard let index = state.index(of: receiver) else { return .stop }
            // Copied out only when a request is owed it (the machine reads it only then).
            let current = state[index].machine.currentValueRequested ? state.currentValue : nil
            switch state[index].machine.delivered(more: more, currentValue: { current }) {
            case .stop:
                return .stop
            case .deliver(let receiver, let value):
                return .deliver(receiver, value)
            case .complete(let receiver, let completion, let demand):
                return .complete(receiver, completion, state.remove(at: index).conduit, demand)
            case .cancelled:
                return .release(state.remove(at: index))
            }
        }
    }
}

// Sendable: every mutable part is behind the lock; values cross to the deliverer's thread, so `Output` must be.
extension SubjectStorage: Sendable where Output: Sendable {}
extension SubjectStorage.State: Sendable where Output: Sendable {}
extension SubjectStorage.Entry: Sendable where Output: Sendable {}

extension SubjectStorage: CustomStringConvertible {}

/// The subject a ``SubjectStorage`` is behind: what its subscriptions are named and show, as Combine's.
@usableFromInline
enum SubjectKind: Sendable {
    case passthrough
    case currentValue
    /// The subject behind `@Published`.
    case published
    /// The subject behind `ObservableObject`'s `objectWillChange`.
    case observableObject

    @inlinable
    var subscriptionName: String {
        switch self {
        case .passthrough: "PassthroughSubject"
        case .currentValue: "CurrentValueSubject"
        case .published: "PublishedSubject"
        case .observableObject: "ObservableObjectPublisher"
        }
    }

    /// Whether a subscription keeps to the demand its subscriber requested; Combine's `ObservableObjectPublisher`
    /// takes any request as `.unlimited`.
    @inlinable
    var countsDemand: Bool {
        if case .observableObject = self { false } else { true }
    }

    /// Combine's `ObservableObjectPublisher` subscription shows only its subscriber, not subject and demand.
    @inlinable
    var mirrorsOnlyDownstream: Bool {
        if case .observableObject = self { true } else { false }
    }
}
