/// The state of one subscriber of a subject (its *conduit*); the conduit runs every
/// transition under its lock and calls the subscriber after unlocking.
///
/// Signals to one subscriber must never overlap (rule 3), even when many threads call
/// `send`, yet no lock may be held while calling it (rule 6). So the first sender to find the
/// conduit `idle` becomes the *deliverer*; a value sent while someone is delivering is
/// counted against demand at once and queued, and the deliverer delivers the queue (and a
/// completion that arrived meanwhile) before it leaves. A re-entrant `send` from inside
/// `receive(_:)` is queued the same way and delivered after that `receive` returns.
///
/// ```
///                 offer with demand / first request (current value)
///         idle ─────────────────────────────────────────▶ delivering
///          ▲  ◀── after delivery, queue empty, no completion ──┘ │  offer with demand: queue it
///          │                                                     │  finish: keep it for later
///          │ finish: deliver completion        after delivery, queue empty, completion kept:
///          ▼                                                     ▼  deliver completion
///      terminated ◀──────────────────────────────────────────────┘
///   (cancel from any state; nothing is delivered from here, closures are released)
/// ```
/// A value offered without demand is dropped (that is a subject's contract).
@usableFromInline
struct ConduitStateMachine<Output, Failure: Error> {
    @usableFromInline typealias ReceiveValue = (Output) -> Subscribers.Demand
    @usableFromInline typealias ReceiveCompletion = (Subscribers.Completion<Failure>) -> Void

    private enum Phase {
        case idle
        case delivering
        case terminated
    }

    private var phase = Phase.idle
    private var receiveValue: ReceiveValue?
    private var receiveCompletion: ReceiveCompletion?
    private(set) var demand = Subscribers.Demand.none
    /// Values already counted against demand, waiting for the deliverer; `head` is the next.
    private var queue: [Output] = []
    private var head = 0
    private var pendingCompletion: Subscribers.Completion<Failure>?
    /// `CurrentValueSubject`: the current value goes out with the first demand.
    private var currentValuePending: Bool

    init(receiveValue: @escaping ReceiveValue, receiveCompletion: @escaping ReceiveCompletion,
         deliversCurrentValue: Bool) {
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
        currentValuePending = deliversCurrentValue
    }

    var isTerminated: Bool { if case .terminated = phase { true } else { false } }

    /// What the deliverer does next.
    @usableFromInline
    enum DeliveryAction {
        case stop
        case deliver(ReceiveValue, Output)
        case complete(ReceiveCompletion, Subscribers.Completion<Failure>)
    }

    /// A sender offers a value. Returns the closure to deliver it with if the caller becomes
    /// the deliverer; `nil` if the value was dropped (no demand, terminated) or queued.
    mutating func offer(_ value: Output) -> ReceiveValue? {
        guard !isTerminated, demand > 0 else { return nil }
        demand -= 1
        if case .delivering = phase {
            queue.append(value)
            return nil
        }
        phase = .delivering
        return receiveValue
    }

    /// The deliverer's `receive` returned `more`. Returns the next thing to deliver, or
    /// `.stop` (idle again, or terminated meanwhile).
    mutating func delivered(more: Subscribers.Demand) -> DeliveryAction {
        guard case .delivering = phase else { return .stop }
        demand += more
        if head < queue.count, let receiveValue {
            let value = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            return .deliver(receiveValue, value)
        }
        if let completion = pendingCompletion, let receiveCompletion {
            terminate()
            return .complete(receiveCompletion, completion)
        }
        phase = .idle
        return .stop
    }

    /// The subscriber requests more. For a pending current value, `currentValue` supplies it
    /// and the caller becomes the deliverer.
    mutating func request(_ more: Subscribers.Demand, currentValue: () -> Output?) -> DeliveryAction {
        guard !isTerminated else { return .stop }
        demand += more
        guard currentValuePending, case .idle = phase, let receiveValue, let value = currentValue() else {
            return .stop
        }
        currentValuePending = false
        demand -= 1
        phase = .delivering
        return .deliver(receiveValue, value)
    }

    /// The subject completes. Returns the completion to deliver now, or `.stop` if the
    /// deliverer will deliver it after the queue (or the conduit already terminated).
    mutating func finish(_ completion: Subscribers.Completion<Failure>) -> DeliveryAction {
        switch phase {
        case .terminated:
            return .stop
        case .delivering:
            pendingCompletion = completion
            return .stop
        case .idle:
            guard let receiveCompletion else { return .stop }
            terminate()
            return .complete(receiveCompletion, completion)
        }
    }

    /// The subscriber cancels. Returns whether it was active, and the closures (which hold
    /// the subscriber) for the caller to release after unlocking.
    mutating func cancel() -> (wasActive: Bool, released: (ReceiveValue?, ReceiveCompletion?, [Output])) {
        guard !isTerminated else { return (false, (nil, nil, [])) }
        let released = (receiveValue, receiveCompletion, queue)
        terminate()
        return (true, released)
    }

    private mutating func terminate() {
        phase = .terminated
        receiveValue = nil
        receiveCompletion = nil
        queue = []
        head = 0
        pendingCompletion = nil
    }
}
