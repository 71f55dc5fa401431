#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization

/// The number of threads ``runConcurrently(threads:_:)`` starts by default: twice the
/// processor count, and at least 8, so that the threads outnumber the cores and the scheduler
/// preempts them in the middle of a call.
public let defaultRacingThreads: Int = {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    let processors = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    #else
    let processors = 4
    #endif
    return max(8, 2 * processors)
}()

/// Runs `body(0)`, …, `body(threads - 1)` each on a thread of its own, all released together
/// once every thread has started, and returns when all have returned.
///
/// Unlike `DispatchQueue.concurrentPerform`, which runs its iterations on at most as many
/// threads as there are cores (two on a two-core machine, one after another when they are
/// short), every body here runs on its own thread and none starts before all threads exist:
/// the calls a test makes in them race.
///
/// ```swift
/// runConcurrently { thread in
///     if thread.isMultiple(of: 2) { recorder.cancel() } else { recorder.request(.max(1)) }
/// }
/// ```
///
/// On platforms without POSIX threads (Windows), the bodies run on Dispatch's overcommitting
/// queues, which also give each its own thread.
public func runConcurrently(threads: Int = defaultRacingThreads, _ body: @escaping @Sendable (Int) -> Void) {
    precondition(threads > 0, "runConcurrently needs at least one thread")
    let barrier = StartBarrier(parties: threads)
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        startThread(then: done) {
            barrier.arriveAndWait()
            body(index)
        }
    }
    // Each thread leaves `done` after it let go of `body`, so that whatever the bodies
    // captured is released by the time this returns (tests check it with `weak`).
    done.wait()
}

/// Holds each arriving thread until `parties` threads have arrived. Every party is a thread of
/// its own (never a pool's worker), so spinning cannot starve the threads still to arrive.
private final class StartBarrier: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)

    init(parties: Int) { self.parties = parties }

    func arriveAndWait() {
        arrived.wrappingAdd(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < parties { yieldThread() }
    }
}

private func yieldThread() {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    sched_yield()
    #endif
}

#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
/// Starts a detached POSIX thread running `work`, then releasing it, then leaving `group`.
private func startThread(then group: DispatchGroup, _ work: @escaping @Sendable () -> Void) {
    final class Work {
        let run: @Sendable () -> Void
        let group: DispatchGroup
        init(_ run: @escaping @Sendable () -> Void, group: DispatchGroup) {
            self.run = run
            self.group = group
        }
    }
    let context = Unmanaged.passRetained(Work(work, group: group)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let result = pthread_create(&thread, nil, { context in
        #if canImport(Darwin)
        let unmanaged = Unmanaged<Work>.fromOpaque(context)
        #else
        let unmanaged = Unmanaged<Work>.fromOpaque(context!)
        #endif
        let group = unmanaged.takeUnretainedValue().group
        unmanaged.takeUnretainedValue().run()
        unmanaged.release()
        group.leave()
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
/// Starts `work` on a serial queue of its own, which Dispatch runs on an overcommitting thread,
/// then leaves `group` (here the block may be released just after).
private func startThread(then group: DispatchGroup, _ work: @escaping @Sendable () -> Void) {
    DispatchQueue(label: "sluice.testing.racing-thread").async {
        work()
        group.leave()
    }
}
#endif
