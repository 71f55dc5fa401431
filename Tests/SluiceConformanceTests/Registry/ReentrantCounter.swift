import Sluice
import Synchronization

/// A lean subscriber for the million-element rule: it requests `.max(1)` from inside each
/// `receive(_:)`, counts values, and measures how deep signals nest (1 when the publisher
/// does not recurse) and whether any value came beyond demand. `RecordingSubscriber` keeps
/// every event and costs microseconds per value; this costs a few atomics.
///
/// `@unchecked Sendable`: `subscription` is written once, in `receive(subscription:)`, before
/// any value (rule 1) and read only by `start()`, which the test calls after subscribing and
/// `receive(_:)` calls afterwards (signals are serial, rule 3); everything else is atomic or
/// behind a lock.
final class ReentrantCounter: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = TestFailure

    let count = Atomic<Int>(0)
    let maxDepth = Atomic<Int>(0)
    let valuesBeyondDemand = Atomic<Int>(0)
    private let depth = Atomic<Int>(0)
    private let outstanding = Atomic<Int>(0)
    private var subscription: (any Subscription)?
    private let finished = Locked<Subscribers.Completion<TestFailure>?>(nil)

    var completion: Subscribers.Completion<TestFailure>? { finished.withLock { $0 } }

    /// Requests the first value.
    func start() {
        guard let subscription else { return }
        outstanding.add(1, ordering: .relaxed)
        subscription.request(.max(1))
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        let level = depth.add(1, ordering: .relaxed).newValue
        if level > maxDepth.load(ordering: .relaxed) { maxDepth.store(level, ordering: .relaxed) }
        if outstanding.subtract(1, ordering: .relaxed).newValue < 0 {
            valuesBeyondDemand.add(1, ordering: .relaxed)
        }
        count.add(1, ordering: .relaxed)
        start()  // re-entrant request for the next value
        depth.subtract(1, ordering: .relaxed)
        return .none
    }

    func receive(completion: Subscribers.Completion<TestFailure>) {
        finished.withLock { $0 = completion }
        subscription = nil  // serial with receive(_:) (rule 3): nothing reads it concurrently
    }
}
