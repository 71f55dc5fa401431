/// The decisions behind the buffering isolated sink
/// (``Publisher/sink(isolation:bufferingPolicy:receiveCompletion:receiveValue:)``): it requests
/// `.unlimited` once and keeps the values that the consumer loop on the actor has not taken
/// yet, as the policy says. Run under the lock of ``IsolatedBuffer``; each event returns what
/// to do after unlocking (design rule 6).
///
/// Phases and transitions (`waiter` is the suspended consumer loop, `handed` the value it was
/// woken for, `buffer` the values kept after that one):
/// ```text
/// awaitingSubscription ──subscription──▶ active(sub)                     [request .unlimited]
/// active ──value, waiter──▶ active                        [handed = value, resume the waiter]
/// active ──value, no waiter──▶ active          [buffer keeps it per policy; drop the refused]
/// awaitingSubscription / active ──completion──▶ completed(c)             [resume the waiter]
/// active / completed ──take──▶ same                          [handed, else the buffer's first]
/// completed(c) ──take, nothing kept──▶ done                              [deliver c, once]
/// awaitingSubscription / active / completed ──cancel──▶ done
///                                        [cancel sub, resume the waiter, drop what is kept]
/// active / completed / done ──subscription──▶ same               [cancel that subscription]
/// ```
/// `take` is the consumer's synchronous step on the actor: it returns a value, the completion,
/// `.empty` (then the consumer parks itself with `wait`) or `.finished`. Because the value is
/// taken on the actor right before `receiveValue` runs, a cancel made on the actor stops
/// delivery at once, and one made elsewhere lets through at most the value already taken.
///
/// `handed` sits outside the policy, as an element handed to a waiting `AsyncStream` consumer
/// does: the limit counts the values kept while the actor is busy, so `.bufferingNewest(0)`
/// still delivers a value that finds the loop waiting. The waiter exists only while nothing is
/// kept and the phase is `awaitingSubscription` or `active`. Values in other phases are ignored
/// (after a cancel the upstream may still race with it), as the one-at-a-time sink does.
///
/// `@inlinable` throughout, as ``IsolatedBuffer`` is, so that clients specialise it.
@usableFromInline
struct IsolatedBufferState<Input: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Waiter = UnsafeContinuation<Void, Never>

    /// The consumer loop's next step.
    @usableFromInline
    enum Step: Sendable {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
        /// Nothing kept yet: wait.
        case empty
        /// Completed and delivered, or cancelled: the loop ends.
        case finished
    }

    /// What to do after unlocking.
    @usableFromInline
    struct Action {
        /// Request `.unlimited` from it.
        @usableFromInline var request: (any Subscription)?
        /// Cancel it.
        @usableFromInline var cancel: (any Subscription)?
        /// Wake the consumer loop.
        @usableFromInline var resume: Waiter?
        /// Values dropped (refused by the policy, or kept until a cancel), released after
        /// unlocking: their deinit may run user code.
        @usableFromInline var dropped: HandOff<Input>?
        @usableFromInline var droppedBuffer: ValuesBuffer<Input>?

        @inlinable
        init(
            request: (any Subscription)? = nil, cancel: (any Subscription)? = nil, resume: Waiter? = nil,
            dropped: HandOff<Input>? = nil, droppedBuffer: ValuesBuffer<Input>? = nil
        ) {
            self.request = request
            self.cancel = cancel
            self.resume = resume
            self.dropped = dropped
            self.droppedBuffer = droppedBuffer
        }
    }

    @usableFromInline
    enum Phase: Sendable {
        case awaitingSubscription
        case active(UpstreamSubscription)
        case completed(Subscribers.Completion<Failure>)
        case done
    }

    @usableFromInline var phase = Phase.awaitingSubscription
    @usableFromInline var waiter: Waiter?
    @usableFromInline var handed: HandOff<Input>?
    @usableFromInline var buffer = ValuesBuffer<Input>()
    @usableFromInline let policy: ValuesBufferingPolicy

    @inlinable init(policy: ValuesBufferingPolicy) { self.policy = policy }

    // MARK: Upstream side

    @inlinable
    mutating func receive(subscription: any Subscription) -> Action {
        guard case .awaitingSubscription = phase else { return Action(cancel: subscription) }
        phase = .active(UpstreamSubscription(subscription))
        return Action(request: subscription)
    }

    @inlinable
    mutating func receive(_ input: Input) -> Action {
        guard case .active = phase else { return Action(dropped: HandOff(input)) }
        if let waiter {
            self.waiter = nil
            handed = HandOff(input)
            return Action(resume: waiter)
        }
        return Action(dropped: buffer.append(HandOff(input), keeping: policy))
    }

    @inlinable
    mutating func receive(completion: Subscribers.Completion<Failure>) -> Action {
        switch phase {
        case .awaitingSubscription, .active:
            phase = .completed(completion)
            defer { waiter = nil }
            return Action(resume: waiter)
        case .completed, .done:
            return Action()
        }
    }

    // MARK: Consumer side (the loop on the actor)

    @inlinable
    mutating func take() -> Step {
        if let value = handed {
            handed = nil
            return .value(value.value)
        }
        if let value = buffer.popFirst() { return .value(value.value) }
        switch phase {
        case .awaitingSubscription, .active:
            return .empty
        case .completed(let completion):
            phase = .done
            return .completion(completion)
        case .done:
            return .finished
        }
    }

    /// Parks the loop; returns `waiter` to resume at once if something came since `take`.
    @inlinable
    mutating func wait(_ waiter: Waiter) -> Waiter? {
        guard handed == nil, buffer.count == 0 else { return waiter }
        switch phase {
        case .awaitingSubscription, .active:
            assert(self.waiter == nil, "one consumer loop waits at a time")
            self.waiter = waiter
            return nil
        case .completed, .done:
            return waiter
        }
    }

    /// Idempotent.
    @inlinable
    mutating func cancel() -> Action {
        let subscription: (any Subscription)?
        switch phase {
        case .done: return Action()
        case .active(let current): subscription = current.base
        case .awaitingSubscription, .completed: subscription = nil
        }
        phase = .done
        defer {
            waiter = nil
            handed = nil
            buffer = ValuesBuffer()
        }
        return Action(cancel: subscription, resume: waiter, dropped: handed, droppedBuffer: buffer)
    }
}
