/// The subscription behind ``Just``, ``Optional/Publisher`` and ``Result/Publisher`` when they
/// have a value: it delivers the value and `.finished` on the first positive demand.
///
/// States and transitions (under the lock; the callouts happen after it):
///
/// ```text
/// pending(subscriber, value) ──request(n > 0)──▶ done   (then: value, .finished)
/// pending(subscriber, value) ──cancel──────────▶ done   (the subscriber is released)
/// done ──request / cancel──▶ done                       (nothing)
/// ```
///
/// Each `request` or `cancel` takes the lock once; only the first one that finds `pending`
/// acts, so a `cancel` racing a `request` either prevents both signals or none.
///
/// `request(_:)` and `cancel()` are reached through `any Subscription`, whose witnesses run
/// generic code with type-metadata look-ups; so both go through ``settle``, a
/// ``SpecializedEntry`` made in the initialiser, which is inlined into the client's
/// specialised `receive(subscriber:)`.

@usableFromInline
final class SingleValueSubscription<Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    enum State {
        case pending(Downstream, Downstream.Input)
        case done
    }

    @usableFromInline let state: Locked<State>
    @usableFromInline let name: String

    /// Takes the pending subscriber and value once; delivers them (`true`, a request) or
    /// drops them after the lock (`false`, a cancel). Specialised in the client; takes the
    /// subscription as an argument, so it holds no reference to it.
    @usableFromInline let settle: SpecializedEntry<SingleValueSubscription, Bool>

    @inlinable
    init(value: Downstream.Input, downstream: Downstream, name: String) {
        state = Locked(.pending(downstream, value))
        self.name = name
        settle = SpecializedEntry { subscription, deliver in
            // The subscriber and the value are released after the lock (their deinit may call out).
            guard let (downstream, value) = subscription.take(), deliver else { return }
            _ = downstream.receive(value)
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
    func take() -> (Downstream, Downstream.Input)? {
        state.withLock { state in
            guard case .pending(let downstream, let value) = state else { return nil }
            state = .done
            return (downstream, value)
        }
    }

    @usableFromInline var description: String { name }

    @usableFromInline var customMirror: Mirror {
        let value: Any? = state.withLock { state -> Any? in
            if case .pending(_, let value) = state { return value }
            return nil
        }
        return Mirror(self, children: ["value": value as Any])
    }

    @usableFromInline var playgroundDescription: Any { description }
}
