#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sluice
import Synchronization

/// The soak against Sluice; without `valuesLoops`, the load the OpenCombine soak gets (it has
/// no `values`), to compare the churners' rounds like for like.
func sluiceSoak(seconds: Double, valuesLoops: Bool = true) -> SoakReport {
    let counters = SoakCounters()
    let subject = Shared(value: PassthroughSubject<Tagged, Never>())
    let shared = Shared(value: subject.value.share())
    var threads: [pthread_t] = []
    for sender in 0..<2 {
        threads.append(startThread {
            var rank = 0
            while !counters.sendersStop.load(ordering: .relaxed) {
                subject.value.send(Tagged(sender: sender, rank: rank))
                rank += 1
            }
            counters.sent.add(rank, ordering: .relaxed)
        })
    }
    var churners: [pthread_t] = []
    for _ in 0..<2 {
        churners.append(startThread {
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
    let loops = Task.detached {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<(valuesLoops ? 2 : 0) {
                group.addTask {
                    var cancelled = false
                    while !counters.stop.load(ordering: .relaxed) {
                        let check = OrderCheck(counters)
                        let loop = Task {
                            var taken = 0
                            for await value in subject.value.values {
                                check.see(value)
                                taken += 1
                                if taken == 50 { break }
                            }
                        }
                        if cancelled { loop.cancel() }
                        cancelled.toggle()
                        await loop.value
                        counters.loops.add(1, ordering: .relaxed)
                    }
                }
            }
        }
    }
    sleepSeconds(seconds)
    counters.stop.store(true, ordering: .relaxed)
    churners.forEach(join)
    // The values loops end with their next values: the senders go on until then.
    Task.detached {
        await loops.value
        counters.loopsDone.store(true, ordering: .releasing)
    }
    while !counters.loopsDone.load(ordering: .acquiring) { sched_yield() }
    counters.sendersStop.store(true, ordering: .relaxed)
    threads.forEach(join)
    return counters.report
}
