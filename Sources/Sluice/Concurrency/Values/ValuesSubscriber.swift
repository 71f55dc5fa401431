/// An element on its way from the upstream to the one task that iterates. Safe to mark Sendable: the
/// upstream gives the element away in `receive(_:)`, and from then on exactly one side holds it (the buffer
/// under the lock, then the iterating task); so `values` serves non-Sendable outputs, as Combine's does.
@usableFromInline
struct HandOff<Element>: @unchecked Sendable {
    @usableFromInline var value: Element
    @inlinable init(_ value: Element) { self.value = value }
}

/// What one `next()` produces.
@usableFromInline
enum ValuesResult<Element, Failure: Error>: Sendable {
    case element(HandOff<Element>)
    case finished
    case failure(Failure)
}

/// How an ``AsyncPublisher`` asks for elements.
@usableFromInline
enum ValuesMode: Sendable {
    case onDemand
    case prefetch(Int)
    case buffering(ValuesBufferingPolicy)
}

/// The subscriber behind an ``AsyncPublisher`` iterator: it receives from the upstream on any thread and
/// hands elements to the iterating task. All state is in one ``Locked`` machine; continuations are resumed
/// and the upstream is called only after unlocking. `@inlinable` throughout so clients specialise it.
@usableFromInline
final class ValuesSubscriber<Input, Failure: Error>: Subscriber, Cancellable, Sendable, CustomStringConvertible {
    @usableFromInline let state: Locked<ValuesState<Input, Failure>>

    /// Where a synchronous upstream hands elements over without the lock (`.onDemand` only).
    @usableFromInline let lane = ValuesFastLane<HandOff<Input>>()

    @inlinable
    init(mode: ValuesMode, requestsAtSubscription: Bool = false) {
        state = Locked(ValuesState(mode: mode, requestsAtSubscription: requestsAtSubscription))
    }

    @usableFromInline var description: String { "AsyncPublisher" }

    // MARK: Subscriber

    @inlinable
    func receive(subscription: any Subscription) {
        let (late, demand) = state.withLock { $0.subscribed(UpstreamSubscription(subscription)) }
        late?.base.cancel()
        if let demand { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let element = lane.offer(HandOff(input)) else { return .none }
        let (action, demand) = state.withLock { $0.received(element) }
        perform(action)
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lane.close()
        perform(state.withLock { $0.completed(completion) })
    }

    @inlinable
    func perform(_ action: ValuesState<Input, Failure>.DeliveryAction) {
        switch action {
        case .none, .drop: break  // a dropped element is released here, outside the lock
        case .resume(let continuation, let result): continuation.resume(returning: result)
        case .end(let first, let result, var others):
            first.resume(returning: result)
            while let continuation = others.popFirst() { continuation.resume(returning: .finished) }
        }
    }

    // MARK: Iterator side

    /// Ends the iteration: cancels the upstream and wakes every waiting `next()` with nil. Idempotent and
    /// callable from any thread (Combine's iterator subscriber is `Cancellable` too).
    @inlinable
    func cancel() {
        guard case (let subscription, var waiters, let dropped)? = state.withLock({ $0.cancel() }) else { return }
        withExtendedLifetime(dropped) {}
        withExtendedLifetime(lane.settle()) {}
        subscription?.base.cancel()
        while let waiter = waiters.popFirst() { waiter.resume(returning: .finished) }
    }

    /// The element, end or failure for one `next()`: no suspension, lock or allocation when the upstream
    /// delivers synchronously inside `request(_:)`. `cache` is what the iterator keeps outside the lock: the
    /// subscription once the `.onDemand` fast lane is in use, or the `.prefetch` batch. Runs on the caller's
    /// actor (`nonisolated(nonsending)`): no executor switch unless it suspends.
    @inlinable @inline(__always)
    nonisolated(nonsending) func next(
        cache: inout ValuesIteratorCache<Input>
    ) async -> ValuesResult<Input, Failure> {
        if let result = nextWithoutWaiting(cache: &cache) { return result }
        return await suspend()
    }

    /// The synchronous part of `next()`: the result, or nil when it has to wait. The default mode's usual
    /// step (not cancelled, lane open, element delivered inside the request) is inlined into the loop; the
    /// rest is in ``nextSlowly(cache:armed:)``, a plain call, so that the async `next()` stays small.
    @inlinable @inline(__always)
    func nextWithoutWaiting(cache: inout ValuesIteratorCache<Input>) -> ValuesResult<Input, Failure>? {
        if cache.isOpen && !Task.isCancelled && lane.arm() {
            cache.subscription.request(.max(1))
            if let element = lane.takeIfFilled() { return .element(element) }
            return nextSlowly(cache: &cache, armed: true)
        }
        return nextSlowly(cache: &cache, armed: false)
    }

    /// The rest of ``nextWithoutWaiting(cache:)``: `armed` says the inlined step armed the lane and
    /// requested, and the element did not come inside the request; otherwise the step did not start.
    @inlinable @inline(never)
    func nextSlowly(cache: inout ValuesIteratorCache<Input>, armed: Bool) -> ValuesResult<Input, Failure>? {
        if !armed {
            if Task.isCancelled {
                cache.close()
                cancel()
                return .finished
            }
            if !cache.isOpen, let element = cache.batch.popFirst() {
                cache.takesBeforeTopUp -= 1
                if cache.takesBeforeTopUp <= 0 { topUp(&cache) }
                return .element(element)
            }
        }
        while true {
            let action = state.withLock { machine in
                let action = settleLane(&machine) ?? machine.next(fastLane: true, batch: &cache.batch)
                cache.takesBeforeTopUp = machine.takesBeforeTopUp(held: cache.batch.count)
                return action
            }
            switch action {
            case .element(let element, let replenish):
                if let (subscription, demand) = replenish { subscription.base.request(demand) }
                return .element(element)
            case .end(let failure):
                cache.close()
                if let failure { return .failure(failure) }
                return .finished
            case .request(let subscription, let demand):
                subscription.base.request(demand)
            case .requestViaFastLane(let subscription):
                cache.open(subscription)
                if let element = requestViaFastLane(subscription) { return .element(element) }
            case .suspend:
                return nil
            }
        }
    }

    /// Prefetch mode, serving from the batch: the level fell to half the limit, so request
    /// the top-up now, as if each element had been taken under the lock.
    @inlinable @inline(never)
    func topUp(_ cache: inout ValuesIteratorCache<Input>) {
        let request = state.withLock { machine in
            defer { cache.takesBeforeTopUp = machine.takesBeforeTopUp(held: cache.batch.count) }
            return machine.topUp(held: cache.batch.count)
        }
        if let (subscription, demand) = request { subscription.base.request(demand) }
    }

    /// Arms the lane, requests `.max(1)` and takes what a synchronous upstream delivered.
    @inlinable @inline(__always)
    func requestViaFastLane(_ subscription: UpstreamSubscription) -> HandOff<Input>? {
        guard lane.arm() else { return nil }
        subscription.base.request(.max(1))
        return lane.takeIfFilled()
    }

    /// Under the lock: settles the fast lane. An element found there is the answer; a lane
    /// still armed hands its outstanding demand to the state machine.
    @inlinable
    func settleLane(_ machine: inout ValuesState<Input, Failure>) -> ValuesState<Input, Failure>.NextAction? {
        let (wasArmed, element) = lane.settle()
        if let element { return .element(element, replenish: nil) }
        if wasArmed { machine.fastLaneMissed() }
        return nil
    }

    /// The slow path: wait for the upstream or the task's cancellation (never inlined, to keep loops light).
    @inlinable @inline(never)
    nonisolated(nonsending) func suspend() async -> ValuesResult<Input, Failure> {
        let actor = #isolation
        let result = await withTaskCancellationHandler(
            operation: { await withUnsafeContinuation(isolation: actor) { self.wait($0) } },
            onCancel: { self.cancel() },
            isolation: actor)
        // Whoever resumed us released this lock first; taking it again makes that hand-over visible to
        // Thread Sanitizer, which misses the runtime's ordering when a continuation is resumed before its
        // task has suspended (swiftlang/swift#57803) and would report the element's contents as a race.
        state.withLock { _ in }
        return result
    }

    /// `next()` for a loop whose task nobody can cancel (the isolated sinks' own task, ended by ``cancel()``):
    /// it waits without a cancellation handler, which on an actor gives the actor up and enqueues itself
    /// again, so a value sent on the actor while the loop waits reaches it before anything enqueued after.
    @inlinable @inline(__always)
    nonisolated(nonsending) func nextInUncancellableTask(
        cache: inout ValuesIteratorCache<Input>
    ) async -> ValuesResult<Input, Failure> {
        if let result = nextWithoutWaiting(cache: &cache) { return result }
        return await suspendInUncancellableTask()
    }

    /// ``suspend()`` without the cancellation handler; see ``nextInUncancellableTask(cache:)``.
    @inlinable @inline(never)
    nonisolated(nonsending) func suspendInUncancellableTask() async -> ValuesResult<Input, Failure> {
        let result = await withUnsafeContinuation(isolation: #isolation) { self.wait($0) }
        state.withLock { _ in }  // as in suspend()
        return result
    }

    /// Parks `continuation` for the upstream, or resumes it at once with what came meanwhile.
    @inlinable
    func wait(_ continuation: ValuesState<Input, Failure>.Continuation) {
        switch state.withLock({ $0.suspend(continuation) }) {
        case .none:
            break
        case .resume(let continuation, let result, let replenish):
            continuation.resume(returning: result)
            if let (subscription, demand) = replenish { subscription.base.request(demand) }
        case .request(let subscription, let demand):
            subscription.base.request(demand)
        }
    }
}
