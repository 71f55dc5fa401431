import Sluice

/// A `Clock` whose time moves only when the test moves it: for testing code that sleeps on a clock, such as
/// `ClockScheduler`, without waiting.
///
/// ``now`` starts at zero. ``advance(by:)`` or ``advance(to:)`` resumes every sleeper whose deadline it reaches,
/// in deadline order (then the order they went to sleep); they then run on their own executors, concurrently
/// with the test, so wait for what they do with an awaitable log, not a sleep. Cancelling a sleeping task ends
/// its sleep with `CancellationError`. A task started may not sleep yet: ``waitForSleepers(_:)`` waits for it.
///
/// <!-- snippet: TestClockScheduler -->
/// ```swift
/// let clock = TestClock()
/// let scheduler = ClockScheduler(clock: clock)
/// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.record("fired") }
/// await clock.waitForSleepers(1)
/// clock.advance(by: .milliseconds(999))   // nothing yet
/// clock.advance(by: .milliseconds(1))     // the action joins the scheduler's queue
/// ```
public final class TestClock: Clock, Sendable {
    /// An instant of a ``TestClock``: how far it lies from the clock's start.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock's start.
        public var offset: Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
        public func duration(to other: Self) -> Duration { other.offset - offset }
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }

        public var description: String { "TestClock.Instant(\(offset))" }
    }

    private let state = Locked(TestClockState<CheckedContinuation<Void, any Error>>())

    /// A clock at zero.
    public init() {}

    /// Where the last advance left the clock.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: a sleep ends exactly at its deadline.
    public var minimumResolution: Duration { .zero }

    /// How many tasks sleep on the clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock reaches `deadline` (returns at once if it has); throws `CancellationError` if
    /// the task is cancelled before or while it sleeps. The tolerance is ignored.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { $0.takeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (registered, ready) = state.withLock { $0.sleep(id: id, until: deadline, continuation) }
                for waiter in ready { waiter.resume() }
                if !registered {
                    continuation.resume()
                } else if Task.isCancelled {
                    // A cancellation that came before the registration found nothing to end.
                    state.withLock { $0.wake(id: id) }?.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            state.withLock { $0.wake(id: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration`, resuming every sleeper whose deadline it reaches, in deadline order.
    public func advance(by duration: Duration = .zero) {
        advance(to: state.withLock { $0.now.advanced(by: duration) })
    }

    /// Moves the clock to `instant` (it never goes back), resuming every sleeper whose deadline it reaches.
    public func advance(to instant: Instant) {
        for continuation in state.withLock({ $0.advance(to: instant) }) { continuation.resume() }
    }

    /// Suspends until at least `count` tasks sleep on the clock at once, or until the awaiting task is
    /// cancelled, so that a test advances the clock only once the sleeps it means to end have begun.
    public func waitForSleepers(_ count: Int) async {
        let id = state.withLock { $0.takeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { $0.wait(id: id, for: count, continuation) }
                if ready || Task.isCancelled { state.withLock { $0.endWait(id: id) }?.resume() }
            }
        } onCancel: {
            state.withLock { $0.endWait(id: id) }?.resume()
        }
    }
}

/// The sleepers and waiters of a ``TestClock``. `Wake` resumes a sleeper (a continuation; order tests use names).
struct TestClockState<Wake: Sendable>: Sendable {
    struct Sleeper: Sendable {
        let id: UInt64
        let deadline: TestClock.Instant
        let continuation: Wake
    }

    var now = TestClock.Instant(offset: .zero)
    /// In the order they went to sleep.
    var sleepers: [Sleeper] = []
    var waiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextID: UInt64 = 0

    mutating func takeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Registers a sleeper unless its deadline is reached (false); returns and removes the waiters now satisfied.
    mutating func sleep(
        id: UInt64, until deadline: TestClock.Instant, _ continuation: Wake
    ) -> (registered: Bool, ready: [CheckedContinuation<Void, Never>]) {
        guard now < deadline else { return (false, []) }
        sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
        let count = sleepers.count
        let ready = waiters.filter { $0.count <= count }.map(\.continuation)
        waiters.removeAll { $0.count <= count }
        return (true, ready)
    }

    /// For the caller to resume.
    mutating func wake(id: UInt64) -> Wake? {
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index).continuation
    }

    /// Removes the sleepers `instant` reaches, in deadline order, for the caller to resume.
    mutating func advance(to instant: TestClock.Instant) -> [Wake] {
        if now < instant { now = instant }
        let due = sleepers.enumerated().filter { $0.element.deadline <= now }
            .sorted { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }
            .map(\.element)
        sleepers.removeAll { $0.deadline <= now }
        return due.map(\.continuation)
    }

    /// True if there are `count` sleepers already: the caller then ends the wait itself.
    mutating func wait(id: UInt64, for count: Int, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        waiters.append((id, count, continuation))
        return sleepers.count >= count
    }

    /// For the caller to resume.
    mutating func endWait(id: UInt64) -> CheckedContinuation<Void, Never>? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).continuation
    }
}
