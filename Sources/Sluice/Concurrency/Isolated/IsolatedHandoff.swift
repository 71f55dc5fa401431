/// The subscriber behind ``Publisher/sink(isolation:receiveCompletion:receiveValue:)``: it
/// requests one value each time the consumer on the actor asks for one, and hands it over.
///
/// `@inlinable` throughout, so that clients specialise it for their element type: generic,
/// each value spent most of its time looking up type metadata.
@usableFromInline
final class IsolatedHandoff<Input: Sendable, Failure: Error>: Subscriber, Cancellable, Sendable,
    CustomStringConvertible
{
    @usableFromInline typealias Machine = IsolatedHandoffState<Input, Failure>

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let machine = Locked(Machine())

    @inlinable init() {}

    @inlinable
    func perform(_ action: Machine.Action) {
        action.cancel?.cancel()
        if let (waiter, event) = action.resume { waiter.resume(returning: event) }
        action.request?.request(.max(1))
    }

    /// The next signal, requesting one value for it; `nil` once cancelled. Cancelling the
    /// awaiting task cancels the subscription.
    ///
    /// A signal that woke the consumer is dropped if a cancel came before the consumer ran:
    /// checked here, on the actor, so a cancel made on the actor (from `receiveValue`, or any
    /// other code there) is never followed by a call to the closures.
    @inlinable
    func next(isolation: isolated (any Actor)? = #isolation) async -> Machine.Event? {
        let event = await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: isolation) { waiter in
                perform(machine.withLock { $0.next(waiter) })
            }
        } onCancel: {
            cancel()
        }
        guard let event, !machine.withLock({ $0.isCancelled }) else { return nil }
        return event
    }

    @inlinable
    func receive(subscription: any Subscription) {
        perform(machine.withLock { $0.receive(subscription: subscription) })
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        perform(machine.withLock { $0.receive(input) })
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        perform(machine.withLock { $0.receive(completion: completion) })
    }

    @inlinable
    func cancel() {
        perform(machine.withLock { $0.cancel() })
    }

    @usableFromInline var description: String { "IsolatedSink" }
}
