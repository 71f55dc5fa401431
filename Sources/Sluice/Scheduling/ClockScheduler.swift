/// A scheduler whose time is a Swift `Clock`'s (`ContinuousClock`, `SuspendingClock`, a test
/// clock) and whose actions run in the order they were scheduled, either isolated to an actor
/// (the main actor above all) or on the global concurrent executor.
///
/// ``mainActor`` is the race-free way to bring a pipeline's output to UI state, whether it only
/// hops (`receive(on: .mainActor)`) or keeps time too:
///
/// <!-- snippet: ClockSchedulerMainActorDebounce -->
/// ```swift
/// // In a @MainActor model: the debounced query is delivered on the main actor.
/// model.$query
///     .debounce(for: .milliseconds(300), scheduler: .mainActor)
///     .sink { [weak self] in self?.title = $0 }
///     .store(in: &cancellables)
/// ```
///
/// **Order.** The scheduler is serial: its actions run one at a time, never overlapping, in the
/// order they joined its queue. An action scheduled with ``schedule(options:_:)`` joins at
/// once; a timed one joins when its wait on the clock ends, so actions due at nearly the same
/// instant may join in either order. An action scheduled from inside a running one runs after
/// it (and after what was queued before it), never nested inside it. Copies of a scheduler
/// share its queue; every main-actor scheduler (``mainActor``, or any clock with
/// `MainActor.shared`) shares one queue, so order holds across all of them.
///
/// **Where.** Isolated to the scheduler's ``actor`` if it has one, else on the global executor.
/// On the main actor, an action scheduled by code already running on the main actor, while
/// nothing is queued or running, runs at once, inside `schedule` (no hop, as
/// `DispatchQueue.main` cannot do); otherwise it waits its turn. The runtime has no public,
/// non-trapping test for "running on this actor" for other actors, so their actions always
/// hop, even when scheduled from the actor itself.
///
/// A queue that keeps filling is run in turns: after a long run of actions, the runner hands
/// the rest to a new task, so other work on the actor (or the executor) gets in between; the
/// order of the actions is unchanged.
///
/// **Time.** A timed action waits in a task of its own, sleeping on the clock until its date
/// (with the tolerance asked for), then joins the queue: it never runs before its date. The
/// repeating form's cancellable cancels that task; a run already queued when it is cancelled
/// is skipped.
///
/// Scheduling while the queue is being run costs a lock and an append (no allocation); the
/// first action into an idle queue starts the one task that runs it.
///
/// Its actions are `@Sendable` and checked at every call, short forms included (it is a
/// ``SendableActionScheduler``): a closure that captures non-`Sendable` or actor-isolated
/// state is an error, not the warning that a generic `Scheduler` gives.
public struct ClockScheduler<C: Clock>: SendableActionScheduler, Sendable where C.Duration == Duration {
    /// The clock the scheduler tells time and waits by.
    public let clock: C
    /// The queue its actions wait in (shared by copies, and by every main-actor scheduler).
    @usableFromInline package let queue: ClockSchedulerQueue

    /// A scheduler on `clock` whose actions wait in `queue` (tests make main-actor schedulers
    /// with a queue of their own, which no other test can keep busy).
    @usableFromInline
    package init(clock: C, queue: ClockSchedulerQueue) {
        self.clock = clock
        self.queue = queue
    }

    /// A scheduler on `clock` whose actions run, one at a time and in order, on the global
    /// concurrent executor (each action on whichever thread runs the queue at that moment).
    public init(clock: C) {
        self.init(clock: clock, queue: ClockSchedulerQueue(actor: nil))
    }

    /// A scheduler on `clock` whose actions run isolated to `actor`, one at a time and in
    /// order. For the main actor, it shares the queue of ``mainActor``; for any other actor, it
    /// has a queue of its own (keep one scheduler and copy it, to keep order across uses).
    public init(clock: C, actor: any Actor) {
        self.init(
            clock: clock,
            queue: actor === MainActor.shared ? .mainActor : ClockSchedulerQueue(actor: actor))
    }

    /// The actor the actions run isolated to; nil when they run on the global executor.
    public var actor: (any Actor)? { queue.actor }

    /// The clock's current instant.
    @inlinable public var now: SchedulerTimeType { SchedulerTimeType(clock.now) }

    /// The clock's resolution.
    @inlinable public var minimumTolerance: SchedulerTimeType.Stride { NanosecondStride(duration: clock.minimumResolution) }

    /// Runs `action` once, after everything already queued; at once (inside this call) on the
    /// main actor when called there with nothing queued or running.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        queue.enqueue(action, priority: options?.priority)
    }

    /// Runs `action` once, after the clock has reached `date` (within `tolerance`), in its turn
    /// in the queue.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        let (clock, queue) = (clock, queue)
        let tolerance = Self.sleepTolerance(tolerance)
        Task(priority: options?.priority) {
            // Nothing can cancel this task (no one holds it), so the sleep ends at `date`.
            try? await clock.sleep(until: date.instant, tolerance: tolerance)
            // This task runs the queue if it is idle: no second task to start.
            if queue.append(action) { await queue.drain(on: queue.actor) }
        }
    }

    /// Runs `action` when the clock reaches `date`, then every `interval` after it, in its turn
    /// in the queue each time, until the returned cancellable is cancelled or released. Runs
    /// never overlap; if the queue falls behind, the runs due meanwhile wait in it, none is
    /// dropped. An `interval` under one nanosecond is taken as one nanosecond.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let (clock, queue) = (clock, queue)
        let tolerance = Self.sleepTolerance(tolerance)
        let step = Swift.max(interval, .nanoseconds(1)).duration
        let priority = options?.priority
        let cancelled = Locked(false)
        // One closure for every run: it checks, when its turn comes, that no cancel came first.
        let run: @Sendable () -> Void = { if !cancelled.withLock({ $0 }) { action() } }
        let task = Task(priority: priority) {
            var deadline = date.instant
            while !Task.isCancelled {
                do { try await clock.sleep(until: deadline, tolerance: tolerance) } catch { return }
                // A task of its own runs the queue, so that this one keeps time.
                if queue.append(run) { queue.startDrain(priority: priority) }
                deadline = deadline.advanced(by: step)
            }
        }
        return AnyCancellable(isolation: nil) {
            cancelled.withLock { $0 = true }
            task.cancel()
        }
    }

    /// The tolerance to hand the clock: none (the clock's default) for zero or less.
    static func sleepTolerance(_ tolerance: NanosecondStride) -> Duration? {
        tolerance > .zero ? tolerance.duration : nil
    }
}

extension Scheduler where Self == ClockScheduler<ContinuousClock> {
    /// A scheduler whose actions run on the main actor, in order, timed by `ContinuousClock`.
    ///
    /// Every use shares one queue, so actions keep their order across all of them; one
    /// scheduled from the main actor into an idle queue runs at once (see ``ClockScheduler``).
    @inlinable
    public static var mainActor: Self { ClockScheduler(clock: ContinuousClock(), queue: .mainActor) }

    /// A scheduler whose actions run isolated to `actor`, in order, timed by `ContinuousClock`.
    ///
    /// Each call makes a scheduler with a queue of its own: keep one and copy it to keep order
    /// across uses. Actions always hop to the actor (see ``ClockScheduler``);
    /// `.actor(MainActor.shared)` is ``mainActor``.
    public static func actor(_ actor: any Actor) -> Self { ClockScheduler(clock: ContinuousClock(), actor: actor) }
}

extension ClockScheduler: CoalescingScheduler {}
