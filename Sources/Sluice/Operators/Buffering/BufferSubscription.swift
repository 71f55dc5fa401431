/// The subscription of `buffer(size:prefetch:whenFull:)`: the upstream's subscriber and the downstream's
/// subscription. Every decision is made by ``BufferState`` under one lock; the calls to the downstream, the
/// upstream and the `customError` closure are made after it (rule 6). Whoever has something to deliver (the
/// upstream's thread for an element with demand, the requesting thread for buffered elements) becomes the
/// deliverer through the state's ``SerialDelivery`` and delivers in a loop
/// (``Locked/deliver(_:to:delivered:carryOut:)``), so signals never overlap and recursion stays flat.
@usableFromInline
final class BufferSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias State = BufferState<Downstream>

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<State>
    /// `customError`'s closure, called outside the lock.
    @usableFromInline let makeError: (() -> Failure)?
    @usableFromInline let size: Int
    @usableFromInline let keepFull: Bool
    /// `request(_:)`, specialised: the downstream (`values` one element at a time) calls it
    /// through `any Subscription` (see ``SpecializedEntry``).
    @usableFromInline let requestEntry: SpecializedEntry<BufferSubscription, Subscribers.Demand>

    @inlinable
    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) {
        let overflow: State.Overflow
        switch whenFull {
        case .dropNewest:
            overflow = .dropNewest
            makeError = nil
        case .dropOldest:
            overflow = .dropOldest
            makeError = nil
        case .customError(let make):
            overflow = .fail
            makeError = make
        }
        self.size = size
        keepFull = prefetch == .keepFull
        requestEntry = SpecializedEntry { $0.handleRequest($1) }
        state = Locked(State(downstream: downstream, size: size, keepFull: keepFull, overflow: overflow))
    }

    // MARK: The upstream

    /// Asks the upstream for the first demand, then gives the downstream this subscription, as Combine does.
    /// Until the downstream has it, this thread is the deliverer (see ``BufferState/attach(_:)``): what the
    /// upstream sends inside that first request is buffered, and what the downstream asks for meanwhile is
    /// delivered after `receive(subscription:)` returns (rule 1).
    @inlinable
    func receive(subscription: any Subscription) {
        guard let attached = state.withLock({ $0.attach(subscription) }) else { return subscription.cancel() }
        let (downstream, first) = attached
        if keepFull && size < 0 { Violation.negativeBufferSize(size) }
        if first > .none { subscription.request(first) }
        downstream.receive(subscription: self)
        let (topUp, next) = state.withLock { $0.delivered(.none) }
        var more = topUp
        state.deliver(next, to: downstream, delivered: { $0.delivered($1) }, carryOut: { more += $0 })
        if more > .none { subscription.request(more) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        switch state.withLock({ $0.receive(input) }) {
        case .kept(let demand):
            return demand
        case .deliver(let downstream):
            var more = Subscribers.Demand.none
            state.deliver(.value(input), to: downstream, delivered: { $0.delivered($1) }, carryOut: { more += $0 })
            return more
        case .overflowed(let upstream):
            upstream?.cancel()
            let failure = makeError!()
            state.withLock { $0.hold(failure) }
            return .none
        case .insideCustomError:
            Violation.signalInsideCustomError()
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.upstreamCompleted(completion) }?.receive(completion: completion)
    }

    // MARK: Subscription

    /// Adds `demand` (`.none` adds nothing, as in Combine), delivers what the buffer holds for it (then
    /// `customError`'s held failure, if an element did not fit), then asks the upstream for what the strategy
    /// wants. Ignored before the upstream's subscription, as in Combine.
    @inlinable
    func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

    @inlinable
    func handleRequest(_ demand: Subscribers.Demand) {
        let (next, downstream, upstream, first) = state.withLock { $0.request(demand) }
        var more = first
        if let downstream {
            state.deliver(next, to: downstream, delivered: { $0.delivered($1) }, carryOut: { more += $0 })
        }
        if let upstream, more > .none { upstream.request(more) }
    }

    /// Cancels the upstream and lets go of the downstream. Ignored before the upstream's
    /// subscription, as in Combine (the subscription that comes later is taken).
    @inlinable
    func cancel() {
        let (upstream, downstream) = state.withLock { $0.cancel() }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        upstream?.cancel()
    }

    @usableFromInline var description: String { "Buffer" }
    /// Combine's children: the values held, the upstream's status, the downstream's
    /// outstanding demand, and the completion waiting behind the values (nil while none).
    @usableFromInline var customMirror: Mirror {
        let (values, status, demand, terminal) = state.withLock { state in
            let terminal: Subscribers.Completion<Failure>? =
                state.heldFailure.map { .failure($0) } ?? (state.finishing ? .finished : nil)
            return (state.buffer.elements, state.upstream.status, state.delivery.demand, terminal)
        }
        return Mirror(
            self,
            children: ["values": values, "state": status, "downstreamDemand": demand, "terminal": terminal as Any]
        )
    }
    @usableFromInline var playgroundDescription: Any { description }
}
