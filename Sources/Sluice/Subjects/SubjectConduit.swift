/// One subscriber's subscription to a subject: runs ``ConduitStateMachine`` under its lock
/// and delivers to the subscriber after unlocking.
///
/// It holds the subscriber only through the two closures made in the subject's inlinable
/// `receive(subscriber:)`, i.e. specialised for the concrete subscriber in the client, so the
/// per-value call to the subscriber is direct. Cancelling and completing release them.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Machine = ConduitStateMachine<Output, Failure>

    private let state: Locked<Machine>
    /// The subject's shared state, to read the current value and to detach on cancel; `nil`
    /// reads as "no current value". Dropped on cancel.
    private let parent: Locked<SubjectStorage<Output, Failure>?>
    /// `"PassthroughSubject"` or `"CurrentValueSubject"`, as Combine names the subscription.
    @usableFromInline let description: String

    @usableFromInline
    init(
        parent: SubjectStorage<Output, Failure>, description: String, deliversCurrentValue: Bool,
        receiveValue: @escaping Machine.ReceiveValue, receiveCompletion: @escaping Machine.ReceiveCompletion
    ) {
        state = Locked(Machine(receiveValue: receiveValue, receiveCompletion: receiveCompletion,
                               deliversCurrentValue: deliversCurrentValue))
        self.parent = Locked(parent)
        self.description = description
    }

    /// Offers a value sent to the subject: delivers it now if this thread becomes the
    /// deliverer, else it is queued (or dropped without demand).
    @inlinable
    func offer(_ value: Output) {
        guard let receiveValue = claim(value) else { return }
        drain(after: receiveValue(value))
    }

    @usableFromInline
    func claim(_ value: Output) -> Machine.ReceiveValue? {
        state.withLock { $0.offer(value) }
    }

    /// The deliverer's loop: after each delivery, delivers whatever was queued meanwhile.
    @inlinable
    func drain(after more: Subscribers.Demand) {
        var more = more
        while true {
            switch delivered(more: more) {
            case .stop:
                return
            case .deliver(let receiveValue, let value):
                more = receiveValue(value)
            case .complete(let receiveCompletion, let completion):
                receiveCompletion(completion)
                detach()
                return
            }
        }
    }

    @usableFromInline
    func delivered(more: Subscribers.Demand) -> Machine.DeliveryAction {
        state.withLock { $0.delivered(more: more) }
    }

    /// Adds demand; delivers a `CurrentValueSubject`'s current value on the first request.
    /// Traps on `.none`.
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let parent = self.parent.withLock { $0 }
        // Lock order: conduit, then subject storage (the storage never takes a conduit lock).
        let action = state.withLock { $0.request(demand) { parent?.currentValue } }
        guard case .deliver(let receiveValue, let value) = action else { return }
        drain(after: receiveValue(value))
    }

    /// Stops delivery, releases the subscriber and detaches from the subject. Idempotent.
    @usableFromInline
    func cancel() {
        let (wasActive, released) = state.withLock { $0.cancel() }
        guard wasActive else { return }
        withExtendedLifetime(released) {}  // released after unlocking
        detach()
    }

    /// The subject completed: delivers the completion now or after the current delivery.
    func finish(_ completion: Subscribers.Completion<Failure>) {
        guard case .complete(let receiveCompletion, let completion) = state.withLock({ $0.finish(completion) })
        else { return }
        receiveCompletion(completion)
        detach()
    }

    @usableFromInline
    func detach() {
        let parent = self.parent.withLock { parent in
            defer { parent = nil }
            return parent
        }
        parent?.remove(self)
    }

    /// The subscriber's outstanding demand, as Combine shows it.
    @usableFromInline
    var customMirror: Mirror {
        let demand = state.withLock { $0.demand }
        let parent: Any = self.parent.withLock { $0 } as Any
        return Mirror(self, children: ["parent": parent, "demand": demand])
    }

    /// The same as ``description``.
    @usableFromInline
    var playgroundDescription: Any { description }
}

// Safe: all mutable state is behind the two locks; the closures (and so the subscriber) are
// called only by the one deliverer the state machine elects, never concurrently (rule 3).
extension SubjectConduit: @unchecked Sendable {}
