import Synchronization

/// The machinery behind both isolated sinks: the subscriber of `values` (``ValuesSubscriber``, with its fast
/// lane: one value requested per step, or `.unlimited` into a buffering policy) drained by a loop on the
/// sink's actor. A cancel raises ``cancelled`` before it cancels the subscriber (which wakes a suspended
/// loop with the end); the loop reads the flag after every step, on the actor, so a cancel made on the
/// actor is never followed by a call to the closures, even for a value that had already woken the loop.
@usableFromInline
final class IsolatedSinkLoop<Input: Sendable, Failure: Error>: Cancellable, Sendable {
    @usableFromInline let subscriber: ValuesSubscriber<Input, Failure>
    @usableFromInline let cancelled = Atomic<Bool>(false)

    /// In `.buffering` mode, `.unlimited` is requested when the subscription comes: values a
    /// hot publisher sends before the loop's first step are kept, as the policy says.
    @inlinable
    init(mode: ValuesMode) { subscriber = ValuesSubscriber(mode: mode, requestsAtSubscription: true) }

    /// Delivers on `actor` until the completion has been delivered or a cancel.
    @inlinable
    func run(
        isolation actor: isolated (any Actor)?,
        receiveCompletion: (Subscribers.Completion<Failure>) -> Void,
        receiveValue: (Input) -> Void
    ) async {
        var cache = ValuesIteratorCache<Input>()
        while true {
            let step = await subscriber.nextInUncancellableTask(cache: &cache)
            if cancelled.load(ordering: .acquiring) { return }
            switch step {
            case .element(let element): receiveValue(element.value)
            case .finished: return receiveCompletion(.finished)
            case .failure(let failure): return receiveCompletion(.failure(failure))
            }
        }
    }

    /// Cancels the upstream, drops what is kept and ends the loop. Idempotent, any thread.
    @inlinable
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        subscriber.cancel()
    }
}

extension Publisher where Output: Sendable {
    /// Subscribes an ``IsolatedSinkLoop`` in `mode` and starts its loop on `actor`.
    @inlinable
    func isolatedSink(
        isolation actor: isolated (any Actor)?, mode: ValuesMode,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let loop = IsolatedSinkLoop<Output, Failure>(mode: mode)
        subscribe(loop.subscriber)
        Task {
            await loop.run(isolation: actor, receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        }
        // Weak: the loop's task keeps `loop` until the loop ends (the completion delivered, or
        // a cancel), so afterwards the cancellable keeps neither the subscriber nor the closures.
        return AnyCancellable(isolation: nil) { [weak loop] in loop?.cancel() }
    }
}
