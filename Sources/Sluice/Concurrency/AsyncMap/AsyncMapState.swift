/// The state of one `asyncMap` subscription (``AsyncMapSubscription``), under its lock. The transform runs
/// on at most `limit` worker tasks, each taking one value after another and parking (in `parked`) when none
/// is waiting, so a value costs no task of its own; `latest` gives each value its own task instead, as a
/// newer value cancels the running one.
///
/// Demand (ordered, unordered): once the downstream has asked for anything, values requested, tasks running
/// and results waiting for demand together stay at `limit`, one more requested per result delivered, so the
/// tasks run ahead of a downstream that asks for one at a time. `latest` asks for `.unlimited` (as
/// `switchToLatest` does) and keeps at most one result waiting.
///
/// Results go through a ``SerialDelivery``: one signal at a time, from whichever task finishes. The first
/// failure (upstream or transform) cancels the upstream and every task, after the results already admitted.
@usableFromInline
struct AsyncMapState<Input: Sendable, Downstream: Subscriber> where Downstream.Input: Sendable {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    enum Mode: Sendable { case ordered, unordered, latest }

    /// A value for the transform, and the id its result goes under.
    @usableFromInline typealias Job = (id: Int, value: Input)

    @usableFromInline let mode: Mode
    @usableFromInline let limit: Int
    /// Released on cancel and after the completion goes out.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream = SubscriptionSlot.awaiting
    @usableFromInline var delivery = SerialDelivery<Output, Failure>()
    /// Values asked of the upstream and not yet received.
    @usableFromInline var awaitingUpstream = 0
    @usableFromInline var upstreamFinished = false
    /// The id the next task gets.
    @usableFromInline var nextID = 0
    /// The transforms still running, by id; for `latest`, the task's handle once it exists.
    @usableFromInline var running: [Int: Task<Void, Never>?] = [:]
    /// Values that no worker has taken yet (a worker between two values takes the next here).
    @usableFromInline var jobs = FIFO<Job>()
    /// Workers waiting for a value; resumed with `nil` when the subscription ends.
    @usableFromInline var parked: [UnsafeContinuation<Job?, Never>] = []
    /// The workers' tasks, cancelled when the subscription ends; `workerCount` also counts unregistered ones.
    @usableFromInline var workers: [Task<Void, Never>] = []
    @usableFromInline var workerCount = 0
    /// Ordered: results waiting for an earlier one, by id; the next to go is `nextToDeliver`.
    @usableFromInline var finishedOutOfOrder: [Int: Output] = [:]
    @usableFromInline var nextToDeliver = 0
    /// Unordered and latest: results waiting for demand, in the order they finished.
    @usableFromInline var waiting = FIFO<Output>()
    /// The downstream has asked for something: the tasks may start.
    @usableFromInline var demanded = false
    /// Cancelled, or the completion decided.
    @usableFromInline var ended = false

    @inlinable
    init(downstream: Downstream, mode: Mode, limit: Int) {
        self.downstream = downstream
        self.mode = mode
        self.limit = limit
    }

    /// What the caller does after unlocking, in this order.
    @usableFromInline
    struct Action {
        @usableFromInline var cancels: [any Subscription] = []
        @usableFromInline var cancelTasks: [Task<Void, Never>] = []
        /// Ask the upstream for this many values.
        @usableFromInline var request: (any Subscription, Subscribers.Demand)?
        /// Start a task for this value, with this id. `latest`: a task of its own for this value.
        @usableFromInline var start: Job?
        /// A new worker, starting with this value.
        @usableFromInline var spawn: Job?
        /// A parked worker and the value it resumes with.
        @usableFromInline var resume: (UnsafeContinuation<Job?, Never>, Job)?
        /// Parked workers to resume with `nil`: the subscription has ended.
        @usableFromInline var stopWorkers: [UnsafeContinuation<Job?, Never>] = []
        @usableFromInline var complete: (Downstream, Subscribers.Completion<Failure>)?
        /// Deliver this result: the caller became the deliverer.
        @usableFromInline var deliver: (Downstream, Output)?
        @inlinable init() {}
    }

    /// The upstream subscribed: `nil` to cancel it; else the demand to ask of it at once.
    @inlinable
    mutating func attach(_ subscription: any Subscription) -> Subscribers.Demand? {
        guard !ended, upstream.attach(subscription) else { return nil }
        return mode == .latest ? .unlimited : Subscribers.Demand.none
    }

    /// The downstream asked for `demand`, or returned it from a delivery.
    @inlinable
    mutating func add(_ demand: Subscribers.Demand, into action: inout Action) {
        guard !ended else { return }
        delivery.demand += demand
        if demand > 0 { demanded = true }
        drain(into: &action)
    }

    /// Admits the results that may go now, asks the upstream for the values that may start, then finishes if done.
    @inlinable
    mutating func drain(into action: inout Action) {
        while delivery.demand > 0, let result = takeNext() { admit(result, into: &action) }
        if mode != .latest, demanded, !upstreamFinished, let subscription = upstream.current {
            let room = limit - (awaitingUpstream + running.count + finishedOutOfOrder.count + waiting.count)
            if room > 0 {
                awaitingUpstream += room
                action.request = (subscription, .max(room))
            }
        }
        if upstreamFinished, running.isEmpty, finishedOutOfOrder.isEmpty, waiting.isEmpty {
            end(with: .finished, into: &action)
        }
    }

    @inlinable
    mutating func takeNext() -> Output? {
        guard mode == .ordered else { return waiting.popFirst() }
        guard let result = finishedOutOfOrder.removeValue(forKey: nextToDeliver) else { return nil }
        nextToDeliver += 1
        return result
    }

    @inlinable
    mutating func admit(_ result: Output, into action: inout Action) {
        if case .deliver = delivery.admit(result), let downstream { action.deliver = (downstream, result) }
    }

    /// The upstream sent `value`: a task starts for it (`latest` cancels the running one).
    @inlinable
    mutating func receive(_ value: Input) -> Action {
        var action = Action()
        guard !ended else { return action }
        if mode == .latest {
            action.cancelTasks = running.values.compactMap { $0 }
            running.removeAll()
            waiting = FIFO()
        } else if awaitingUpstream > 0 {
            awaitingUpstream -= 1
        }
        running[nextID] = .some(nil)
        let job = (id: nextID, value: value)
        nextID += 1
        if mode == .latest {
            action.start = job
        } else if let worker = parked.popLast() {
            action.resume = (worker, job)
        } else if workerCount < limit {
            workerCount += 1
            action.spawn = job
        } else {
            jobs.append(job)  // a busy worker takes it when its transform returns
        }
        return action
    }

    /// A worker's next value: `.some(job)`, `.some(nil)` to stop, or `nil` when it is parked
    /// (with `continuation`) until a value comes or the subscription ends.
    @inlinable
    mutating func nextJob(parking continuation: UnsafeContinuation<Job?, Never>) -> Job?? {
        if ended { return .some(nil) }
        if let job = jobs.popFirst() { return .some(job) }
        parked.append(continuation)
        return nil
    }

    /// Keeps a new worker's task for cancelling; returns it if the subscription has ended.
    @inlinable
    mutating func registerWorker(_ task: Task<Void, Never>) -> Task<Void, Never>? {
        if ended { return task }
        workers.append(task)
        return nil
    }

    /// The task `id` exists: keep its handle to cancel it, or return it to cancel now.
    @inlinable
    mutating func register(_ task: Task<Void, Never>, id: Int) -> Task<Void, Never>? {
        if running[id] != nil {
            running[id] = task
            return nil
        }
        return ended ? task : nil  // finished already, or cancelled while it was being made
    }

    @inlinable
    mutating func finished(_ id: Int, with result: Result<Output, Failure>) -> Action {
        var action = Action()
        guard !ended, running.removeValue(forKey: id) != nil else { return action }  // superseded or ended
        switch result {
        case .success(let output):
            if mode == .ordered { finishedOutOfOrder[id] = output } else { waiting.append(output) }
            drain(into: &action)
        case .failure(let failure):
            end(with: .failure(failure), into: &action)
        }
        return action
    }

    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Action {
        var action = Action()
        guard !ended else { return action }
        _ = upstream.end()
        switch completion {
        case .finished:
            upstreamFinished = true
            drain(into: &action)
        case .failure:
            end(with: completion, into: &action)
        }
        return action
    }

    /// The deliverer is back with `more` demand from the downstream.
    @inlinable
    mutating func delivered(more: Subscribers.Demand) -> (Action, SerialDelivery<Output, Failure>.Next) {
        var action = Action()
        guard downstream != nil else { return (action, .idle) }  // cancelled meanwhile
        add(more, into: &action)
        let next = delivery.next(adding: .none)
        if case .completion = next { downstream = nil }
        return (action, next)
    }

    /// The completion goes out now, or after the results the deliverer still holds; the
    /// upstream and every task are cancelled.
    @inlinable
    mutating func end(with completion: Subscribers.Completion<Failure>, into action: inout Action) {
        ended = true
        if let upstream = upstream.end()?.upstream { action.cancels.append(upstream) }
        stopTasks(into: &action)
        action.request = nil
        finishedOutOfOrder.removeAll()
        waiting = FIFO()
        if delivery.finish(completion), let downstream {
            self.downstream = nil
            action.complete = (downstream, completion)
        }
    }

    /// The downstream cancelled: what to cancel, and the downstream to release.
    @inlinable
    mutating func cancel() -> (Action, Downstream?) {
        var action = Action()
        ended = true
        if let upstream = upstream.end()?.upstream { action.cancels.append(upstream) }
        stopTasks(into: &action)
        finishedOutOfOrder.removeAll()
        waiting = FIFO()
        delivery.reset()
        defer { downstream = nil }
        return (action, downstream)
    }

    /// Cancels the running transforms and the workers, and resumes the parked workers to stop.
    @inlinable
    mutating func stopTasks(into action: inout Action) {
        action.cancelTasks += running.values.compactMap { $0 } + workers
        action.stopWorkers += parked
        running.removeAll()
        workers.removeAll()
        parked.removeAll()
        jobs = FIFO()
    }
}
