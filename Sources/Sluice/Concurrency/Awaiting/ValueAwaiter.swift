/// The subscriber behind ``Publisher/firstValue()``, ``Publisher/onlyValue()`` and
/// ``Publisher/lastValue()``: it runs a ``ValueAwaiterState`` under its lock and
/// resumes the awaiting task, requests and cancels only after unlocking. `@inlinable` throughout, so that
/// clients specialise it for their element type.
@usableFromInline
final class ValueAwaiter<Input: Sendable, Failure: Error>: Subscriber, Sendable, CustomStringConvertible {
    @usableFromInline typealias Machine = ValueAwaiterState<Input, Failure>

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let machine: Locked<Machine>

    @inlinable
    init(mode: Machine.Mode) {
        machine = Locked(Machine(mode: mode))
    }

    /// Subscribes to `publisher` and suspends until the outcome; cancelling the awaiting task
    /// cancels the subscription and resumes with `.cancelled`.
    @inlinable
    static func outcome<P: Publisher>(
        of publisher: P, mode: Machine.Mode, cancellable: Bool = true, isolation: isolated (any Actor)? = #isolation
    ) async -> Machine.Outcome where P.Output == Input, P.Failure == Failure {
        let awaiter = ValueAwaiter(mode: mode)
        guard cancellable else {
            return await withUnsafeContinuation(isolation: isolation) { continuation in
                awaiter.perform(awaiter.machine.withLock { $0.install(continuation) })
                publisher.subscribe(awaiter)
            }
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: isolation) { continuation in
                awaiter.perform(awaiter.machine.withLock { $0.install(continuation) })
                publisher.subscribe(awaiter)
            }
        } onCancel: {
            awaiter.perform(awaiter.machine.withLock { $0.cancel() })
        }
    }

    @inlinable
    func perform(_ action: Machine.Action) {
        action.cancel?.cancel()
        if let (continuation, outcome) = action.resume { continuation.resume(returning: outcome) }
        if let subscription = action.request {
            subscription.request(machine.withLock { $0.demand })
        }
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

    @usableFromInline var description: String { "ValueAwaiter" }
}
