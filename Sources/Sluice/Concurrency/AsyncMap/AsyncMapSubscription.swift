/// The subscription of `asyncMap`, `asyncMapUnordered` and `asyncMapLatest`: the subscriber of the upstream,
/// the subscription of the downstream and the owner of the tasks. Its rules are ``AsyncMapState``'s; every
/// transition happens under one lock, and every call out (downstream, upstream, a task) after unlocking.
@usableFromInline
final class AsyncMapSubscription<Input: Sendable, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input: Sendable {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias Transform = @Sendable (Input) async throws(Failure) -> Output

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<AsyncMapState<Input, Downstream>>
    @usableFromInline let transform: Transform
    @usableFromInline let requestEntry: SpecializedEntry<AsyncMapSubscription, Subscribers.Demand>

    @inlinable
    init(
        downstream: Downstream,
        mode: AsyncMapState<Input, Downstream>.Mode,
        limit: Int,
        transform: @escaping Transform
    ) {
        state = Locked(AsyncMapState(downstream: downstream, mode: mode, limit: limit))
        self.transform = transform
        requestEntry = SpecializedEntry { $0.handleRequest($1) }
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        let (demand, downstream) = state.withLock { ($0.attach(subscription), $0.downstream) }
        guard let demand, let downstream else { return subscription.cancel() }
        downstream.receive(subscription: self)
        if demand > .none { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        perform(state.withLock { $0.receive(input) })
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        perform(state.withLock { $0.upstreamCompleted(completion) })
    }

    // MARK: The tasks

    /// Starts the task for value `id` and registers it, so that a cancel can reach it.
    @inlinable
    func start(_ id: Int, _ value: Input) {
        let body = UncheckedSendableBody<Void> { _ in await self.run(id, value) }
        let task = Task { await body.run(()) }
        if let cancelled = state.withLock({ $0.register(task, id: id) }) { cancelled.cancel() }
    }

    /// Starts a worker: it runs the transform on `job`, then on each value it finds waiting,
    /// parking when there is none, until the subscription ends.
    @inlinable
    func spawnWorker(_ job: AsyncMapState<Input, Downstream>.Job) {
        let body = UncheckedSendableBody<Void> { _ in await self.work(from: job) }
        let task = Task { await body.run(()) }
        if let cancelled = state.withLock({ $0.registerWorker(task) }) { cancelled.cancel() }
    }

    @inlinable
    func work(from first: AsyncMapState<Input, Downstream>.Job) async {
        var job = first
        while true {
            await run(job.id, job.value)
            let next = await withUnsafeContinuation {
                (worker: UnsafeContinuation<AsyncMapState<Input, Downstream>.Job?, Never>) in
                if let next = state.withLock({ $0.nextJob(parking: worker) }) { worker.resume(returning: next) }
            }
            guard let next else { return }
            job = next
        }
    }

    /// The transform of value `id`, then its result.
    @inlinable
    func run(_ id: Int, _ value: Input) async {
        do throws(Failure) {
            finished(id, with: .success(try await transform(value)))
        } catch {
            finished(id, with: .failure(error))
        }
    }

    @inlinable
    func finished(_ id: Int, with result: Result<Output, Failure>) {
        perform(state.withLock { $0.finished(id, with: result) })
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

    @inlinable
    func handleRequest(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        perform(state.withLock { state in
            var action = AsyncMapState<Input, Downstream>.Action()
            state.add(demand, into: &action)
            return action
        })
    }

    @inlinable
    func cancel() {
        let (action, downstream) = state.withLock { $0.cancel() }
        withExtendedLifetime(downstream) {}  // released here, after unlocking
        perform(action)
    }

    /// Carries out an action; if it made this thread the deliverer, delivers until nothing is
    /// left (results admitted meanwhile by other tasks, then a completion kept for it).
    @inlinable
    func perform(_ action: AsyncMapState<Input, Downstream>.Action) {
        carryOut(action)
        if let (downstream, completion) = action.complete { downstream.receive(completion: completion) }
        guard let (downstream, first) = action.deliver else { return }
        // The deliverer's own actions never deliver or complete: the loop's signals do.
        state.deliver(.value(first), to: downstream, delivered: { $0.delivered(more: $1) }, carryOut: carryOut)
    }

    @inlinable
    func carryOut(_ action: AsyncMapState<Input, Downstream>.Action) {
        for upstream in action.cancels { upstream.cancel() }
        for task in action.cancelTasks { task.cancel() }
        if let (upstream, demand) = action.request { upstream.request(demand) }
        if let (id, value) = action.start { start(id, value) }
        if let job = action.spawn { spawnWorker(job) }
        if let (worker, job) = action.resume { worker.resume(returning: job) }
        for worker in action.stopWorkers { worker.resume(returning: nil) }
    }

    @usableFromInline var description: String { "AsyncMap" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
