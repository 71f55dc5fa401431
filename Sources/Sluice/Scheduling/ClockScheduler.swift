/// A scheduler whose time is a Swift `Clock`'s (`ContinuousClock`, `SuspendingClock`, a test clock) and
/// whose actions run in the order they were scheduled, isolated to an actor (the main actor above all) or
/// on the global concurrent executor. ``mainActor`` is the race-free way to bring a pipeline's output to UI
/// state, whether it only hops (`receive(on: .mainActor)`) or keeps time too:
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
/// **Order.** Serial: actions run one at a time, in the order they joined its queue: at once from
/// ``schedule(options:_:)``, or when a timed one's wait ends (so actions due at nearly the same instant may
/// join in either order). One scheduled from a running one runs after it, never nested. Copies share the
/// queue; all main-actor schedulers share one, so order holds across them.
///
/// **Where.** On ``actor`` if it has one, else on the global executor. An action scheduled from the main
/// actor onto an idle main-actor queue runs at once inside `schedule` (no hop, unlike `DispatchQueue.main`);
/// other actors' actions always hop (no public non-trapping "on this actor" test). A long run hands the rest
/// to a new task, so other work gets in between.
///
/// **Time.** A timed action sleeps on the clock in a task of its own until its date (within the tolerance),
/// then joins the queue. The repeating form's cancellable cancels that task and skips a run already queued.
/// Every call's action is checked, short forms included (a ``SendableActionScheduler``).
public struct ClockScheduler<C: Clock>: SendableActionScheduler, Sendable where C.Duration == Duration {
    /// The clock the scheduler tells time and waits by.
    public let clock: C
    /// Shared by copies, and by every main-actor scheduler.
    @usableFromInline package let queue: ClockSchedulerQueue

    /// For tests, whose main-actor schedulers get a queue no other test can keep busy.
    @usableFromInline
    package init(clock: C, queue: ClockSchedulerQueue) {
        self.clock = clock
        self.queue = queue
    }

    /// A scheduler on `clock` whose actions run, one at a time and in order, on the global executor.
    public init(clock: C) {
        self.init(clock: clock, queue: ClockSchedulerQueue(actor: nil))
    }

    /// A scheduler on `clock` whose actions run isolated to `actor`, one at a time and in order. For the main
    /// actor it shares ``mainActor``'s queue; otherwise it has its own (copy one scheduler to keep order).
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
    @inlinable public var minimumTolerance: SchedulerTimeType.Stride {
        NanosecondStride(duration: clock.minimumResolution)
    }

    /// Runs `action` once, after everything queued (see the type's discussion for when it runs at once).
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        queue.enqueue(action, priority: options?.priority)
    }

    /// Runs `action` once, in its turn in the queue, after the clock has reached `date` (within `tolerance`).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        let (clock, queue) = (clock, queue)
        let tolerance = Self.sleepTolerance(tolerance)
        Task(priority: options?.priority) {
            // Nothing can cancel this task (no one holds it), so the sleep ends at `date`.
            try? await clock.sleep(until: date.instant, tolerance: tolerance)
            // If the queue is idle, this task runs it: no second task to start.
            if queue.append(action) { await queue.drain(on: queue.actor) }
        }
    }

    /// Runs `action` when the clock reaches `date`, then every `interval` (at least a nanosecond), each time
    /// in its turn in the queue, until the returned cancellable is cancelled or released. Runs never overlap;
    /// if the queue falls behind, the runs due meanwhile wait in it, none dropped.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let (clock, queue) = (clock, queue)
        let tolerance = Self.sleepTolerance(tolerance)
        let step = Swift.max(interval, .nanoseconds(1)).duration
        let priority = options?.priority
        let cancelled = Locked(false)
        // One closure for every run: when its turn comes, it checks that no cancel came first.
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
    /// A scheduler whose actions run on the main actor, in order (every use shares one queue), timed by
    /// `ContinuousClock`; one scheduled from the main actor into an idle queue runs at once.
    @inlinable
    public static var mainActor: Self { ClockScheduler(clock: ContinuousClock(), queue: .mainActor) }

    /// A scheduler whose actions run isolated to `actor`, in order, timed by `ContinuousClock`. Each call
    /// makes a queue of its own (copy one scheduler to keep order); actions always hop to the actor.
    /// `.actor(MainActor.shared)` is ``mainActor``.
    public static func actor(_ actor: any Actor) -> Self { ClockScheduler(clock: ContinuousClock(), actor: actor) }
}

extension ClockScheduler: CoalescingScheduler {}
