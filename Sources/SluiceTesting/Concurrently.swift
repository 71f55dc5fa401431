#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Sluice
import Synchronization

/// The number of threads ``runConcurrently(threads:_:)`` uses by default: twice the processor count, and at
/// least 8, so that the threads outnumber the cores and the scheduler preempts them in the middle of a call.
public let defaultRacingThreads: Int = {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    let processors = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    #else
    let processors = 4
    #endif
    return max(8, 2 * processors)
}()

/// Runs `body(0)`, …, `body(threads - 1)` each on a thread of its own, all released together once every thread
/// is ready, and returns when all have returned.
///
/// Unlike `DispatchQueue.concurrentPerform`, which uses at most as many threads as there are cores, every body
/// runs on its own thread and none starts before all are ready: the calls a test makes in them race. What the
/// bodies captured is released by the time this returns (a test may check it with `weak`).
///
/// <!-- snippet: RunConcurrentlyRace -->
/// ```swift
/// runConcurrently { thread in
///     if thread.isMultiple(of: 2) { recorder.cancel() } else { recorder.request(.max(1)) }
/// }
/// ```
///
/// The threads are dedicated (never a pool's shared workers), parked between calls and reused, so that a test
/// may call this thousands of times. Without POSIX threads (Windows), they are Dispatch's overcommitting threads.
public func runConcurrently(threads: Int = defaultRacingThreads, _ body: @escaping @Sendable (Int) -> Void) {
    let (done, workers) = startRacing(threads: threads, body)
    done.wait()
    RacingThreads.shared.give(back: workers)
}

/// ``runConcurrently(threads:_:)`` for async code: the caller suspends until the threads are done instead of
/// blocking its thread. Use it for long bodies (soak tests): a blocked caller holds one of the few threads of
/// Swift's cooperative pool, which every other test then lacks.
public func runConcurrentlyAwaiting(
    threads: Int = defaultRacingThreads,
    _ body: @escaping @Sendable (Int) -> Void
) async {
    let (done, workers) = startRacing(threads: threads, body)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        done.notify(queue: .global()) { continuation.resume() }
    }
    RacingThreads.shared.give(back: workers)
}

/// The group is left when all are done; the threads go back with ``RacingThreads/give(back:)``.
private func startRacing(
    threads: Int, _ body: @escaping @Sendable (Int) -> Void
) -> (DispatchGroup, [RacingThread]) {
    precondition(threads > 0, "runConcurrently needs at least one thread")
    let barrier = StartBarrier(parties: threads)
    let done = DispatchGroup()
    let workers = RacingThreads.shared.take(threads)
    for (index, worker) in workers.enumerated() {
        done.enter()
        worker.run(then: done) {
            barrier.arriveAndWait()
            body(index)
        }
    }
    return (done, workers)
}

/// Spins each arriving thread until `parties` have arrived; every party is a thread of its own, so spinning
/// cannot starve the threads still to arrive.
private final class StartBarrier: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)

    init(parties: Int) { self.parties = parties }

    func arriveAndWait() {
        arrived.wrappingAdd(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < parties { yieldThread() }
    }
}

/// The idle racing threads, shared by all calls (tests run in parallel; each call takes threads and gives them back).
private final class RacingThreads: Sendable {
    static let shared = RacingThreads()
    private let idle = Locked<[RacingThread]>([])

    func take(_ count: Int) -> [RacingThread] {
        let taken = idle.withLock { idle -> [RacingThread] in
            let taken = Array(idle.suffix(count))
            idle.removeLast(taken.count)
            return taken
        }
        return taken + (0..<(count - taken.count)).map { _ in RacingThread() }
    }

    func give(back threads: [RacingThread]) {
        idle.withLock { $0.append(contentsOf: threads) }
    }
}

/// A thread of its own that runs one job at a time, parked on a semaphore in between.
private final class RacingThread: Sendable {
    private let wake = DispatchSemaphore(value: 0)
    private let job = Locked<(work: @Sendable () -> Void, done: DispatchGroup)?>(nil)

    init() {
        startThread { [self] in
            while true {
                wake.wait()
                runJob()
            }
        }
    }

    /// Runs `work` on this thread, then leaves `done` once `work` is released.
    func run(then done: DispatchGroup, _ work: @escaping @Sendable () -> Void) {
        job.withLock { $0 = (work, done) }
        wake.signal()
    }

    private func runJob() {
        guard let (work, done) = job.withLock({ job in defer { job = nil }; return job }) else { return }
        work()
        _ = consume work  // released before the caller is told
        done.leave()
    }
}

private func yieldThread() {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    sched_yield()
    #endif
}

#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
/// Starts a detached POSIX thread running `main` (the racing threads, the loopback server's).
func startThread(_ main: @escaping @Sendable () -> Void) {
    final class Main {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(Main(main)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let result = pthread_create(&thread, nil, { context in
        #if canImport(Darwin)
        Unmanaged<Main>.fromOpaque(context).takeRetainedValue().run()
        #else
        Unmanaged<Main>.fromOpaque(context!).takeRetainedValue().run()
        #endif
        return nil
    }, context)
    precondition(result == 0, "pthread_create failed (\(result))")
    #if canImport(Darwin)
    pthread_detach(thread!)
    #else
    pthread_detach(thread)
    #endif
}
#else
/// Starts `main` on a serial queue of its own, which Dispatch runs on an overcommitting thread.
func startThread(_ main: @escaping @Sendable () -> Void) {
    DispatchQueue(label: "sluice.testing.racing-thread").async(execute: main)
}
#endif
