import Foundation
import Sluice

/// A thread of its own that runs its run loop for a test, until ``stop()``: on Linux nothing
/// runs a run loop unless a thread does (`RunLoop.main` included).
///
/// The loop runs in the default mode in short slices, checking between them whether it was
/// asked to stop; a timer that never fires keeps the run loop from returning at once when
/// nothing else is scheduled on it. ``stop()`` does not wait for the thread to leave the loop
/// (a test must not block a thread of the global executor): a test that needs nothing to run
/// after it cancels what it scheduled first. Nothing is ordered by the slices: tests wait for
/// the events themselves.
final class RunLoopThread: Sendable {
    private let stopping = Locked(false)
    private let identity = Locked<UInt>(0)

    /// The thread's identity (`currentThreadIdentity()`), to check where actions run.
    var threadIdentity: UInt { identity.withLock { $0 } }

    /// How long the run loop runs before the thread checks whether to stop.
    private let slice: TimeInterval

    private init(slice: TimeInterval) { self.slice = slice }

    /// Starts a thread running its run loop in slices of `slice` seconds; returns it with the
    /// run loop, once the loop runs.
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
    }

    /// Asks the loop to stop; the thread leaves it within a slice. It does not wait for that:
    /// a test's task runs on the few threads of the global executor, and must not block one.
    func stop() {
        stopping.withLock { $0 = true }
    }
}
