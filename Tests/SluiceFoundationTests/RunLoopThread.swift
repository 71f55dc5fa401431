import Foundation
@_spi(Internals) import Sluice

/// A thread of its own that runs its run loop for a test, until ``stop()``: on Linux nothing
/// runs a run loop unless a thread does (`RunLoop.main` included).
///
/// The loop runs in the default mode in short slices, checking between them whether it was
/// asked to stop; a timer that never fires keeps the run loop from returning at once when
/// nothing else is scheduled on it. ``stop()`` returns once the thread has left the loop, so
/// nothing runs on the run loop after it. Nothing is ordered by the slices: tests wait for
/// the events themselves.
final class RunLoopThread: Sendable {
    private let stopping = Locked(false)
    private let exited = DispatchSemaphore(value: 0)
    private let identity = Locked<UInt>(0)

    /// The thread's identity (`currentThreadIdentity()`), to check where actions run.
    var threadIdentity: UInt { identity.withLock { $0 } }

    /// How long the run loop runs before the thread checks whether to stop.
    private let slice: TimeInterval

    private init(slice: TimeInterval) { self.slice = slice }

    /// Starts a thread running its run loop in slices of `slice` seconds; returns it with the
    /// run loop, once the loop runs. ``stop()`` waits for the slice under way to end.
    static func start(slice: TimeInterval = 0.005) async -> (RunLoopThread, RunLoop) {
        let thread = RunLoopThread(slice: slice)
        let runLoop: RunLoop = await withCheckedContinuation { continuation in
            Thread { thread.run(handingOver: continuation) }.start()
        }
        return (thread, runLoop)
    }

    private func run(handingOver continuation: CheckedContinuation<RunLoop, Never>) {
        identity.withLock { $0 = currentThreadIdentity() }
        let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
        RunLoop.current.add(keepAlive, forMode: .default)
        // The test only adds timers to it from its own thread, which a run loop supports.
        continuation.resume(returning: RunLoop.current)
        while !stopping.withLock({ $0 }) {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: slice))
        }
        exited.signal()
    }

    /// Stops the loop and waits for the thread to leave it. Given the thread's run loop, it
    /// wakes it (through the run-loop scheduler) once the stop is asked for, so that a long
    /// slice does not hold the thread.
    func stop(waking runLoop: RunLoop? = nil) {
        stopping.withLock { $0 = true }
        runLoop?.schedule {}
        exited.wait()
    }
}
