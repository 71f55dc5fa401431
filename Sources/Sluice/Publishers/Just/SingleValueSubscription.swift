import Synchronization

/// The subscription behind ``Just``, ``Optional/Publisher`` and ``Result/Publisher`` when they
/// have a value: it delivers the value and `.finished` on the first positive demand.
///
/// ```text
/// pending(subscriber) ──request(n > 0)──▶ settled   (then: value, .finished)
/// pending(subscriber) ──cancel──────────▶ settled   (the subscriber is released)
/// settled ──request / cancel──▶ settled             (nothing)
/// ```
///
/// The first `request` or `cancel` settles it through one atomic exchange (no lock, so a `flatMap` making
/// one per value pays one allocation); only that caller takes the subscriber, so a `cancel` racing a
/// `request` prevents both signals or none. Both go through ``settle``, a ``SpecializedEntry`` inlined into
/// the client's specialised `receive(subscriber:)`, as calls through `any Subscription` run generic code.

@usableFromInline
final class SingleValueSubscription<Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline let value: Downstream.Input
    @usableFromInline let settled = Atomic<Bool>(false)
    /// Read and cleared only by the one caller that wins `settled` (and by deinit), so never
    /// by two threads: the exchange orders the winner after the initialiser's write.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    @usableFromInline let name: String

    @usableFromInline let settle: SpecializedEntry<SingleValueSubscription, Bool>

    @inlinable
    init(value: Downstream.Input, downstream: Downstream, name: String) {
        self.value = value
        self.downstream = downstream
        self.name = name
        settle = SpecializedEntry { subscription, deliver in
            // The subscriber is released after the call (its deinit may call out).
            guard let downstream = subscription.take(), deliver else { return }
            _ = downstream.receive(subscription.value)
            downstream.receive(completion: .finished)
        }
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        settle(self, true)
    }

    @usableFromInline
    func cancel() {
        settle(self, false)
    }

    @inlinable
    func take() -> Downstream? {
        guard !settled.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        defer { downstream = nil }
        return downstream
    }

    @usableFromInline var description: String { name }

    /// The value, as one unlabelled child, as Combine shows it (`dump` prints `- 42`).
    @usableFromInline var customMirror: Mirror {
        Mirror(self, unlabeledChildren: [value as Any])
    }

    @usableFromInline var playgroundDescription: Any { description }
}
