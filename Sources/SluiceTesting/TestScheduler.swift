import Dispatch
import Sluice

/// A scheduler on virtual time: nothing runs until the test moves the clock.
///
/// ``advance(by:)`` moves ``now`` forward, running each action that falls due on the way at its due time, those
/// due at the same instant in the order scheduled. An action scheduled "now" runs at the next advance, even
/// `advance()` by zero, which is how a test sees a `receive(on:)` hop happen. Actions run on the thread that
/// advances the clock, one at a time; those they schedule run in the same advance if they fall due within it.
///
/// It is generic over its time type, so it can stand in for a real scheduler (see ``VirtualTimeScheduler``,
/// and `DispatchQueue.test` for code written against `DispatchQueue.SchedulerTimeType`):
///
/// <!-- snippet: TestSchedulerDebounce -->
/// ```swift
/// let scheduler = VirtualTimeScheduler()
/// let subject = PassthroughSubject<Int, Never>()
/// let recorder = RecordingSubscriber<Int, Never>()
/// subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
/// subject.send(1)
/// scheduler.advance(by: .milliseconds(999))  // nothing yet
/// scheduler.advance(by: .milliseconds(1))    // recorder.values == [1]
/// ```
///
/// Its actions are `@Sendable` and checked at every call (a `SendableActionScheduler`): capturing
/// non-`Sendable` or actor-isolated state is an error, not the warning that a generic `Scheduler` gives.
public final class TestScheduler<SchedulerTimeType: Strideable & Sendable, SchedulerOptions>:
    SendableActionScheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
    private let state: Locked<TestSchedulerQueue<SchedulerTimeType>>

    /// A scheduler whose clock reads `now` until the test advances it.
    public init(now: SchedulerTimeType) {
        state = Locked(TestSchedulerQueue(now: now))
    }

    /// The virtual time: where the last advance left it.
    public var now: SchedulerTimeType { state.withLock { $0.now } }

    /// Zero: virtual time runs each action exactly when it is due.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// How many actions wait to run (a repeating one counts once).
    public var scheduledCount: Int { state.withLock { $0.jobs.count } }

    /// Queues `action` to run at the current instant, at the next advance.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        state.withLock { _ = $0.add(at: $0.now, interval: nil, action) }
    }

    /// Queues `action` to run when the clock reaches `date` (at the next advance if it has already).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) {
        state.withLock { _ = $0.add(at: date, interval: nil, action) }
    }

    /// Queues `action` to run at `date` and then every `interval`, until the returned cancellable is cancelled
    /// or released. `interval` must be positive, or an advance would never end.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        precondition(interval > .zero, "TestScheduler: a repeating action needs a positive interval")
        let id = state.withLock { $0.add(at: date, interval: interval, action) }
        return AnyCancellable(isolation: nil) { [weak self] in
            _ = self?.state.withLock { $0.remove(id: id) }
        }
    }

    /// Moves the clock forward by `stride`, running every action that falls due on the way, each at its due time.
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        advance(to: state.withLock { $0.now.advanced(by: stride) })
    }

    /// Moves the clock to `instant` (it never goes back), running every action that falls due on the way.
    public func advance(to instant: SchedulerTimeType) {
        while let due = state.withLock({ $0.takeDue(upTo: instant) }) {
            due.action()
        }
    }

    /// Runs every scheduled action, moving the clock to each one's due time, until none is left. A repeating
    /// action that is never cancelled keeps it running forever.
    public func run() {
        while let due = state.withLock({ $0.takeNext() }) {
            due.action()
        }
    }
}

extension TestScheduler: OwnScheduler {}

/// A ``TestScheduler`` whose time counts nanoseconds from zero and which takes no options.
public typealias VirtualTimeScheduler = TestScheduler<VirtualTime, Never>

extension TestScheduler where SchedulerTimeType == VirtualTime, SchedulerOptions == Never {
    /// A scheduler whose clock starts at zero.
    public convenience init() { self.init(now: SchedulerTimeType(nanoseconds: 0)) }
}


/// A binary min-heap of jobs ordered by due time, then by the order they were scheduled in.
struct TestSchedulerQueue<Time: Strideable & Sendable>: Sendable where Time.Stride: Sendable {
    struct Job: Sendable {
        var due: Time
        var order: UInt64
        let id: UInt64
        let interval: Time.Stride?
        let action: @Sendable () -> Void

        func precedes(_ other: Job) -> Bool { due < other.due || (due == other.due && order < other.order) }
    }

    /// Not a bare closure: one returned through `withLock`'s generic result goes through an allocating thunk.
    struct Due: Sendable {
        let action: @Sendable () -> Void
    }

    var now: Time
    var jobs: [Job] = []
    var nextOrder: UInt64 = 0

    init(now: Time) { self.now = now }

    @discardableResult
    mutating func add(at due: Time, interval: Time.Stride?, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let order = nextOrder
        nextOrder += 1
        push(Job(due: due, order: order, id: order, interval: interval, action: action))
        return order
    }

    mutating func remove(id: UInt64) -> Job? {
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return nil }
        let job = jobs[index]
        jobs.swapAt(index, jobs.count - 1)
        jobs.removeLast()
        if index < jobs.count {
            siftDown(from: index)
            siftUp(from: index)
        }
        return job
    }

    /// The first job due by `limit`, with the clock moved to its due time (or to `limit` when none is due).
    mutating func takeDue(upTo limit: Time) -> Due? {
        guard !jobs.isEmpty, jobs[0].due <= limit else {
            if now < limit { now = limit }
            return nil
        }
        return take()
    }

    mutating func takeNext() -> Due? {
        jobs.isEmpty ? nil : take()
    }

    private mutating func take() -> Due {
        var job = popFirst()
        if now < job.due { now = job.due }
        if let interval = job.interval {
            job.due = job.due.advanced(by: interval)
            job.order = nextOrder
            nextOrder += 1
            push(job)
        }
        return Due(action: job.action)
    }

    private mutating func push(_ job: Job) {
        jobs.append(job)
        siftUp(from: jobs.count - 1)
    }

    private mutating func popFirst() -> Job {
        jobs.swapAt(0, jobs.count - 1)
        let job = jobs.removeLast()
        if !jobs.isEmpty { siftDown(from: 0) }
        return job
    }

    private mutating func siftUp(from index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard jobs[child].precedes(jobs[parent]) else { return }
            jobs.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            var first = parent
            let left = 2 * parent + 1
            if left < jobs.count && jobs[left].precedes(jobs[first]) { first = left }
            if left + 1 < jobs.count && jobs[left + 1].precedes(jobs[first]) { first = left + 1 }
            if first == parent { return }
            jobs.swapAt(parent, first)
            parent = first
        }
    }
}

extension DispatchQueue {
    /// A ``TestScheduler`` with `DispatchQueue`'s time and options, to stand in for a queue in code written
    /// against it; its clock starts at uptime 1 ns (`DispatchTime(uptimeNanoseconds: 0)` means "now" to Dispatch).
    public static var test: TestScheduler<SchedulerTimeType, SchedulerOptions> {
        TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }

    /// An ``ImmediateTestScheduler`` with `DispatchQueue`'s time and options; its clock starts at uptime 1 ns.
    public static var immediate: ImmediateTestScheduler<SchedulerTimeType, SchedulerOptions> {
        ImmediateTestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}
