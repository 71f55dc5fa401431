/// The subscriber behind ``Publisher/sink(isolation:receiveCompletion:receiveValue:)``: it
/// requests one value each time the consumer on the actor asks for one, and hands it over.
final class IsolatedHandoff<Input: Sendable, Failure: Error>: Subscriber, Cancellable, Sendable,
    CustomStringConvertible
{
    typealias Machine = IsolatedHandoffStateMachine<Input, Failure>

    let combineIdentifier = CombineIdentifier()
    private let machine = Locked(Machine())

    private func perform(_ action: Machine.Action) {
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

    func receive(subscription: any Subscription) {
        perform(machine.withLock { $0.receive(subscription: subscription) })
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        perform(machine.withLock { $0.receive(input) })
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        perform(machine.withLock { $0.receive(completion: completion) })
    }

    func cancel() {
        perform(machine.withLock { $0.cancel() })
    }

    var description: String { "IsolatedSink" }
}
