import Dispatch
import Sluice
import SluiceTesting
import Synchronization
import Testing

@Suite("runConcurrently: threads of their own, released together", .timeLimit(.minutes(12)))
struct RunConcurrentlyTests {
    @Test("Every body runs, once, with its index")
    func everyBodyRunsOnce() {
        // `Locked`, not `Mutex`: Thread Sanitizer does not see `Mutex`'s futex on Linux.
        let seen = Locked<[Int]>([])
        runConcurrently(threads: 12) { index in seen.withLock { $0.append(index) } }
        #expect(seen.withLock { $0.sorted() } == Array(0..<12))
    }

    @Test("All bodies are running at the same time, more of them than there are cores")
    func bodiesOverlap() {
        // Each body waits until every body has started: with fewer threads than bodies (as
        // `concurrentPerform` gives on a small machine) the first ones would wait for the
        // others forever, and give up after the deadline.
        let threads = defaultRacingThreads
        let started = Atomic<Int>(0)
        let allTogether = Atomic<Int>(0)
        runConcurrently(threads: threads) { _ in
            started.wrappingAdd(1, ordering: .acquiringAndReleasing)
            let deadline = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
            while started.load(ordering: .acquiring) < threads {
                if DispatchTime.now().uptimeNanoseconds > deadline { return }
            }
            allTogether.wrappingAdd(1, ordering: .relaxed)
        }
        #expect(allTogether.load(ordering: .relaxed) == threads)
        #expect(threads >= 8)
    }

    @Test("What the bodies captured is released by the time it returns, also when its threads are reused")
    func bodiesAreReleased() {
        final class Token: Sendable {}
        for _ in 0..<3 {
            weak var weakToken: Token?
            do {
                let token = Token()
                weakToken = token
                runConcurrently(threads: 4) { _ in _ = token }
            }
            #expect(weakToken == nil)
        }
    }
}
