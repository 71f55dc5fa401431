#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@preconcurrency import OpenCombine
import Synchronization

/// The soak against OpenCombine: the same senders and churners (OpenCombine has no `values`).
func openCombineSoak(seconds: Double) -> SoakReport {
    let counters = SoakCounters()
    let subject = Shared(value: PassthroughSubject<Tagged, Never>())
    let shared = Shared(value: subject.value.share())
    var threads: [pthread_t] = []
    for sender in 0..<2 {
        threads.append(startThread {
            var rank = 0
            while !counters.stop.load(ordering: .relaxed) {
                subject.value.send(Tagged(sender: sender, rank: rank))
                rank += 1
            }
            counters.sent.add(rank, ordering: .relaxed)
        })
    }
    for _ in 0..<2 {
        threads.append(startThread {
            while !counters.stop.load(ordering: .relaxed) {
                let mapped = OrderCheck(counters), sharing = OrderCheck(counters)
                let first = subject.value.map { $0 }.filter { $0.rank % 3 != 0 }.sink { mapped.see($0) }
                let second = shared.value.sink { sharing.see($0) }
                for _ in 0..<100 { sched_yield() }
                first.cancel()
                second.cancel()
                counters.rounds.add(1, ordering: .relaxed)
            }
        })
    }
    sleepSeconds(seconds)
    counters.stop.store(true, ordering: .relaxed)
    threads.forEach(join)
    return counters.report
}
