/// One subscriber's one-at-a-time delivery when signals come from many threads: the demand, the
/// *deliverer* (the one thread out calling the subscriber), the values and the completion that
/// arrived while it was out. A plain value, kept under its owner's lock; the owner calls the
/// subscriber after unlocking (rule 6). Subjects' conduits and `Emitting` share it, and so will
/// every operator that merges signals from several threads.
///
/// The protocol, each step under the owner's lock:
/// - a sender calls ``admit(_:)``: the value is refused without demand; otherwise the demand is
///   taken at once and, if no one is delivering, the sender becomes the deliverer and delivers
///   it itself, else it is queued;
/// - the deliverer, back from the subscriber with the demand it returned, calls
///   ``next(adding:)`` and delivers what that gives, until `.idle`;
/// - a completion goes through ``finish(_:)``: delivered at once if no one is delivering, else
///   kept, and the deliverer delivers it after the queue.
/// So signals never overlap (rule 3), values go out in the order they were admitted, and the
/// queue never holds more than the demand that was outstanding (rule 2).
@usableFromInline
package struct SerialDelivery<Output, Failure: Error> {
    /// Demand requested and not yet taken by an admitted value.
    @usableFromInline package var demand = Subscribers.Demand.none
    /// A deliverer is out calling the subscriber.
    @usableFromInline package var delivering = false
    /// Values admitted while the deliverer was out, each already counted against demand.
    @usableFromInline package var queue = FIFO<Output>()
    /// A completion that arrived while the deliverer was out.
    @usableFromInline package var pendingCompletion: Subscribers.Completion<Failure>?

    @inlinable package init() {}

    /// What a sender does with the value it offered.
    @usableFromInline
    package enum Admission {
        /// No demand: the value is dropped (or kept by the sender).
        case refused
        /// Someone is delivering: it delivers this value in turn.
        case queued
        /// The sender is now the deliverer: it delivers the value itself.
        case deliver
    }

    /// What the deliverer delivers next.
    @usableFromInline
    package enum Next {
        case value(Output)
        /// The last signal: the owner terminates.
        case completion(Subscribers.Completion<Failure>)
        /// Nothing left: the deliverer is gone.
        case idle
    }

    /// Whether the deliverer has something more to deliver after the current signal.
    @inlinable package var hasMore: Bool { !queue.isEmpty || pendingCompletion != nil }

    /// A completion is kept for the deliverer: nothing more may be admitted.
    @inlinable package var isFinishing: Bool { pendingCompletion != nil }

    /// A sender offers `value`.
    @inlinable
    package mutating func admit(_ value: Output) -> Admission {
        guard demand > 0, pendingCompletion == nil else { return .refused }
        demand -= 1
        if delivering {
            queue.append(value)
            return .queued
        }
        delivering = true
        return .deliver
    }

    /// The deliverer is back, and the subscriber asked for `more`.
    @inlinable
    package mutating func next(adding more: Subscribers.Demand) -> Next {
        demand += more
        if let value = queue.popFirst() { return .value(value) }
        if let completion = pendingCompletion {
            pendingCompletion = nil
            delivering = false
            return .completion(completion)
        }
        delivering = false
        return .idle
    }

    /// The stream ends. Returns `true` if the caller delivers `completion` now; `false` if the
    /// deliverer will, after the queue (a second completion is ignored).
    @inlinable
    package mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard delivering else { return true }
        if pendingCompletion == nil { pendingCompletion = completion }
        return false
    }

    /// Drops what is queued (after a cancel or a completion), keeping nothing of the stream.
    @inlinable
    package mutating func reset() {
        self = SerialDelivery()
    }
}

extension SerialDelivery: Sendable where Output: Sendable {}

extension Locked {
    /// The deliverer's loop, for an owner whose state (behind this lock) holds a
    /// ``SerialDelivery``: delivers `next` to `downstream`, hands the demand it returns to
    /// `delivered` under the lock (which answers with an action and what to deliver next),
    /// runs `carryOut` on that action after unlocking, and goes on until nothing is left.
    /// Every multi-upstream operator (merge, flatMap, switchToLatest, zip, combineLatest,
    /// asyncMap) delivers through it.
    @inlinable
    package func deliver<Downstream: Subscriber, Action>(
        _ next: SerialDelivery<Downstream.Input, Downstream.Failure>.Next, to downstream: Downstream,
        delivered: (inout State, Subscribers.Demand) -> (Action, SerialDelivery<Downstream.Input, Downstream.Failure>.Next),
        carryOut: (Action) -> Void
    ) {
        var next = next
        while case .value(let value) = next {
            let more = downstream.receive(value)
            let action: Action
            (action, next) = withLock { delivered(&$0, more) }
            carryOut(action)
        }
        if case .completion(let completion) = next { downstream.receive(completion: completion) }
    }
}
