import Synchronization

/// Plays a ``Record`` to one subscriber, per demand, without recursion.
///
/// Values go out in batches: under the lock the drainer reserves as many values as the
/// outstanding demand allows, then delivers them without the lock, checking a cancellation
/// flag before each one; demand returned from `receive(_:)` or requested meanwhile is added
/// when the batch is done.
///
/// States and transitions of ``Machine`` (under the lock; signals are sent after it, by the
/// one caller that is draining):
///
/// ```text
/// idle(next, demand) ──request(n)──▶ draining            → deliver output[next..<next+k], k ≤ demand
/// draining ──request(n)──▶ draining                        (demand added; the drain loop goes on)
/// draining ──delivered(extra), more & demand > 0──▶ draining → deliver the next batch
/// draining ──delivered(extra), more & demand == 0──▶ idle
/// draining ──delivered(extra), none left──▶ done           → completion
/// idle / draining ──cancel──▶ done                         (the subscriber is released)
/// ```
final class RecordSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    struct Machine {
        enum Action {
            case none
            case deliver(Downstream, Range<Int>)
            case complete(Downstream, Subscribers.Completion<Failure>)
        }

        private enum State {
            case active(Downstream, next: Int, demand: Subscribers.Demand, draining: Bool)
            case done
        }

        private var state: State
        let output: [Output]
        let completion: Subscribers.Completion<Failure>

        init(downstream: Downstream, output: [Output], completion: Subscribers.Completion<Failure>) {
            state = .active(downstream, next: 0, demand: .none, draining: false)
            self.output = output
            self.completion = completion
        }

        var isCancelled: Bool { if case .done = state { true } else { false } }

        mutating func request(_ demand: Subscribers.Demand) -> Action {
            guard case .active(let downstream, let next, let pending, let draining) = state else { return .none }
            if draining {
                state = .active(downstream, next: next, demand: pending + demand, draining: true)
                return .none
            }
            return step(downstream, next: next, demand: pending + demand)
        }

        mutating func delivered(_ extra: Subscribers.Demand) -> Action {
            guard case .active(let downstream, let next, let pending, _) = state else { return .none }
            if next == output.count {
                state = .done
                return .complete(downstream, completion)
            }
            return step(downstream, next: next, demand: pending + extra)
        }

        /// Returns the subscriber so that it is released after the lock.
        mutating func cancel() -> Downstream? {
            guard case .active(let downstream, _, _, _) = state else { return nil }
            state = .done
            return downstream
        }

        private mutating func step(_ downstream: Downstream, next: Int, demand: Subscribers.Demand) -> Action {
            guard demand > 0 else {
                state = .active(downstream, next: next, demand: demand, draining: false)
                return .none
            }
            let count = min(demand.max ?? Int.max, output.count - next)
            state = .active(downstream, next: next + count, demand: demand - count, draining: true)
            return .deliver(downstream, next..<(next + count))
        }
    }

    private let machine: Locked<Machine>
    /// Set by `cancel()` so that a batch in flight stops before its next value.
    private let cancelled = Atomic<Bool>(false)
    /// The recorded values, read without the lock while delivering (immutable).
    private let output: [Output]

    init(downstream: Downstream, output: [Output], completion: Subscribers.Completion<Failure>) {
        machine = Locked(Machine(downstream: downstream, output: output, completion: completion))
        self.output = output
    }

    /// Delivers up to `demand` more recorded values; `.none` adds nothing, as in Combine.
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { return }
        var action = machine.withLock { $0.request(demand) }
        while case .deliver(let downstream, let range) = action {
            var extra = Subscribers.Demand.none
            for index in range {
                if cancelled.load(ordering: .acquiring) { return }
                extra += downstream.receive(output[index])
            }
            action = machine.withLock { $0.delivered(extra) }
        }
        if case .complete(let downstream, let completion) = action {
            downstream.receive(completion: completion)
        }
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
        _ = machine.withLock { $0.cancel() }
    }

    /// The recorded values, or `"Cancelled Events"` once cancelled or completed, as Combine
    /// prints it.
    var description: String {
        let (output, cancelled) = machine.withLock { ($0.output, $0.isCancelled) }
        return cancelled ? "Cancelled Events" : output.description
    }

    var customMirror: Mirror {
        let (output, completion, cancelled) = machine.withLock { ($0.output, $0.completion, $0.isCancelled) }
        return Mirror(self, children: ["sequence": cancelled ? [] : output, "completion": completion])
    }

    var playgroundDescription: Any { description }
}
