// Issue 29's soak, in the suite: what a user's app does to a subject, for a fixed time. Memory
// is checked through what bounds it, the hand-over queues' length (exact); the resident set is
// measured by the Soak program of Benchmarks/ (alone in its process: in the suite it is the
// whole test process's, and other suites' growth swamped it, 35 to 87 MiB in full runs).
import Synchronization
import Testing
import Sluice
import SluiceTesting

@Suite("Stress: soak", .timeLimit(.minutes(12)))
struct SoakStressTests {
    /// Two threads send into a subject as fast as they can; two threads subscribe and cancel
    /// sinks (behind `map`/`filter`, and through `share()`); two tasks run `for await` loops
    /// over `values` taking 50 elements, every other one cancelled at once. For 4 seconds
    /// (divided by `SLUICE_STRESS_DIVISOR`, at least half a second).
    @Test("senders faster than delivery: every subscriber sees each sender's values in order, and no hand-over queue grows past its bound")
    func sendersChurnAndValuesLoops() async {
        await Self.checkSendersChurnAndValuesLoops()
    }

    /// The check of ``sendersChurnAndValuesLoops()``, with `fault` (if any) between the
    /// publishers and the churners' sinks.
    static func checkSendersChurnAndValuesLoops(fault: InjectedFault? = nil) async {
        let duration = max(4.0 / Double(StressBudget.divisor * StressBudget.reduction), 0.5)
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int(duration * 1_000))
        let subject = PassthroughSubject<Tagged, Never>()
        let shared = StressShared(subject.share())
        let stats = Locked((rounds: 0, loops: 0, longest: 0, breaches: [String]()))

        @Sendable func check(_ values: [Tagged]) {
            if let breach = perSenderOrder(values, senders: 2).breach { stats.withLock { $0.breaches.append(breach) } }
        }

        // The values loops, on the cooperative pool; each runs at least once (other suites may
        // hold the pool until the deadline) and ends at the 50th value or the completion.
        let loops = (0..<2).map { _ in
            Task.detached {
                var cancelled = false
                repeat {
                    let loop = Task {
                        var seen: [Tagged] = []
                        for await value in subject.values {
                            seen.append(value)
                            if seen.count == 50 { break }
                        }
                        return seen
                    }
                    if cancelled { loop.cancel() }
                    cancelled.toggle()
                    check(await loop.value)
                    stats.withLock { $0.loops += 1 }
                } while ContinuousClock.now < deadline
            }
        }

        // Off the cooperative pool's threads, and without blocking one while it runs: other
        // suites (a loopback HTTP server among them) share that pool.
        await runConcurrentlyAwaiting(threads: 5) { thread in
            switch thread {
            case 0, 1:
                // Senders, until the deadline (the subject's completion then ends the loops).
                var rank = 0
                while ContinuousClock.now < deadline {
                    subject.send(Tagged(sender: thread, rank: rank))
                    rank += 1
                }
            case 2, 3:
                // Churners: a sink behind map/filter and one through share(), a few values, cancel.
                while ContinuousClock.now < deadline {
                    let mapped = Locked<[Tagged]>([]), sharing = Locked<[Tagged]>([])
                    let first = Self.sink(subject.map { $0 }.filter { $0.rank % 3 != 0 }, into: mapped, fault: fault)
                    let second = Self.sink(shared.value, into: sharing, fault: fault)
                    for _ in 0..<200 where mapped.withLock({ $0.count }) < 20 { yieldThread() }
                    first.cancel()
                    second.cancel()
                    check(mapped.withLock { $0 })
                    check(sharing.withLock { $0 })
                    stats.withLock { $0.rounds += 1 }
                }
            default:
                // The monitor: the longest hand-over queue.
                while ContinuousClock.now < deadline {
                    let longest = subject.longestQueue
                    stats.withLock { $0.longest = max($0.longest, longest) }
                    yieldThread()
                }
            }
        }
        // The loops end with the subject: waiting for their 50th value would need the senders to
        // go on past the deadline, which starved the cooperative pool under Thread Sanitizer.
        subject.send(completion: .finished)
        for loop in loops { await loop.value }

        let result = stats.withLock { $0 }
        #expect(result.breaches.isEmpty, "\(result.breaches.prefix(3))")
        // Two senders can each add one value past the bound before they wait.
        #expect(result.longest <= handOverBound + 2, "a hand-over queue held \(result.longest) values")
        #expect(result.rounds > 0 && result.loops > 0, "\(result.rounds) rounds, \(result.loops) loops")
    }

    /// A sink appending to `values`, subscribed directly, or through `fault` when there is one.
    private static func sink(
        _ publisher: some Publisher<Tagged, Never>, into values: Locked<[Tagged]>, fault: InjectedFault?
    ) -> AnyCancellable {
        guard let fault else { return publisher.sink { value in values.withLock { $0.append(value) } } }
        let sink = Subscribers.Sink<Tagged, Never>(receiveCompletion: { _ in }) { value in values.withLock { $0.append(value) } }
        publisher.subscribe(sink, injecting: fault)
        return AnyCancellable(sink)
    }
}
