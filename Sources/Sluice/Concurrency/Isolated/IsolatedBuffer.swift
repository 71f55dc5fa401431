/// The subscriber behind
/// ``Publisher/sink(isolation:bufferingPolicy:receiveCompletion:receiveValue:)``: it receives
/// on any thread with `.unlimited` demand and keeps values for the consumer loop on the actor,
/// which drains them with ``take()`` and parks with ``wait(isolation:)`` only when nothing is
/// kept. All state is one ``IsolatedBufferState`` under ``Locked``; continuations are
/// resumed and the upstream is called only after unlocking.
///
/// `@inlinable` throughout, so that clients specialise it for their element type, as
/// ``IsolatedHandoff`` is.
@usableFromInline
final class IsolatedBuffer<Input: Sendable, Failure: Error>: Subscriber, Cancellable, Sendable,
    CustomStringConvertible
{
    @usableFromInline typealias Machine = IsolatedBufferState<Input, Failure>

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let machine: Locked<Machine>

    @inlinable init(policy: ValuesBufferingPolicy) { machine = Locked(Machine(policy: policy)) }

    @inlinable
    func perform(_ action: Machine.Action) {
        withExtendedLifetime((action.dropped, action.droppedBuffer)) {}
        action.cancel?.cancel()
        action.resume?.resume()
        action.request?.request(.unlimited)
    }

    // MARK: Consumer loop

    /// The loop's next step: a kept value, the completion, `.empty` or `.finished`. Never
    /// suspends, so a loop on the actor drains what is kept without a hop per value.
    @inlinable
    func take() -> Machine.Step {
        machine.withLock { $0.take() }
    }

    /// Suspends until ``take()`` has something new (a value, the completion, a cancel).
    @inlinable
    func wait(isolation: isolated (any Actor)? = #isolation) async {
        await withUnsafeContinuation(isolation: isolation) { waiter in
            machine.withLock { $0.wait(waiter) }?.resume()
        }
    }

    /// Cancels the upstream, drops what is kept and ends the loop. Idempotent, any thread.
    @inlinable
    func cancel() {
        perform(machine.withLock { $0.cancel() })
    }

    // MARK: Subscriber

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

    @usableFromInline var description: String { "IsolatedSink" }
}
