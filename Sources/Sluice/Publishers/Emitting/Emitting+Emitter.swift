extension Publishers.Emitting {
    /// The handle a ``Publishers/Emitting`` body uses to talk to its one subscriber.
    ///
    /// It exposes the outstanding ``demand``, tells the body of new requests (``onRequest(_:)``) and of
    /// cancellation (``onCancel(_:)``), and delivers values with ``send(_:)``, never beyond the demand. It
    /// may be used from any thread; signals reach the subscriber one at a time, in the order accepted.
    ///
    /// <!-- snippet: CreateEmitterDropsWithoutDemand -->
    /// ```swift
    /// let ticks = AnyPublisher<Int, Never>.emitting { emitter in
    ///     let token = clock.onTick { tick in
    ///         _ = emitter.send(tick)   // false, and dropped, while there is no demand
    ///     }
    ///     emitter.onCancel { clock.remove(token) }
    /// }
    /// ```
    public final class Emitter {
        @usableFromInline let machine: Locked<EmittingState<Output, Failure>>

        @inlinable
        init(downstream: AnySubscriber<Output, Failure>) {
            machine = Locked(EmittingState(downstream: EmittingDownstream(downstream)))
        }

        /// The demand requested and not yet used by accepted values; `.none` once finished or cancelled.
        @inlinable
        public var demand: Subscribers.Demand { machine.withLock { $0.demand } }

        /// Whether the subscriber cancelled or a completion was sent: later sends are refused.
        @inlinable
        public var isTerminated: Bool { machine.withLock { $0.isTerminated } }

        /// Sends a value if there is outstanding demand.
        ///
        /// Returns `true` if the value was accepted: delivered, or (while another signal is in flight, e.g. a
        /// send from another thread or from `onRequest` during a `receive`) delivered right after, in order,
        /// unless the subscriber cancels first; `false`, dropping it, with no demand or after the end.
        @inlinable @discardableResult
        public func send(_ value: Output) -> Bool {
            switch machine.withLock({ $0.send(value) }) {
            case .refused: return false
            case .queued: return true
            case .deliver(let downstream, let value):
                drain(downstream.base.receive(value))
                return true
            }
        }

        /// Sends the completion (after any accepted values); later sends are refused.
        @inlinable
        public func send(completion: Subscribers.Completion<Failure>) {
            finish(machine.withLock { $0.send(completion: completion) })
        }

        /// Registers the closure called, outside any lock, with each newly requested demand (also from
        /// inside the subscriber's `receive(_:)`); with demand already outstanding, it is called at once.
        /// As it can run re-entrantly and on several threads, take a value out of your source before
        /// sending it, and put it back if ``send(_:)`` returns `false`. While a value is out another call
        /// finds nothing to take, so after putting one back, send it again if ``demand`` is no longer
        /// `.none`, and send the completion only once the source is empty and no value is out.
        public func onRequest(_ handler: @escaping @Sendable (Subscribers.Demand) -> Void) {
            let outstanding = machine.withLock { $0.setOnRequest(handler) }
            if outstanding > 0 { handler(outstanding) }
        }

        /// Registers the closure called exactly once when the subscriber cancels; it is run at
        /// once if the subscriber already cancelled. Not called after a completion was sent.
        public func onCancel(_ handler: @escaping @Sendable () -> Void) {
            let stored = machine.withLock { $0.setOnCancel(handler) }
            if !stored, machine.withLock({ $0.wasCancelled }) { handler() }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            if demand == .none { Violation.zeroDemandRequested() }
            machine.withLock { $0.request(demand) }?(demand)
        }

        @inlinable
        func cancel() {
            if case .cancelled(let retired) = machine.withLock({ $0.cancel() }) {
                retired.onCancel?()
            }
        }

        @inlinable
        func drain(_ extra: Subscribers.Demand) {
            var extra = extra
            while true {
                switch machine.withLock({ $0.delivered(extra) }) {
                case .idle:
                    return
                case .deliver(let downstream, let value):
                    extra = downstream.base.receive(value)
                case .complete(let completion, let retired):
                    retired.downstream.base.receive(completion: completion)
                    return
                }
            }
        }

        @inlinable
        func finish(_ action: EmittingState<Output, Failure>.DrainAction) {
            if case .complete(let completion, let retired) = action {
                retired.downstream.base.receive(completion: completion)
            }
        }
    }
}

// Sendable by construction: all mutable state is inside `Locked` (the subscriber in a
// ``EmittingDownstream``); values cross threads, so only where `Output` is Sendable.
extension Publishers.Emitting.Emitter: Sendable where Output: Sendable {}
