import AsyncAlgorithms
import Benchmark
import BenchmarkSupport
import Sluice

/// `for await` over Sluice's combining operators through `values` (one element requested per
/// `next()`), next to swift-async-algorithms' functions of the same name over the same
/// sequences. N is the number of elements each loop receives (for `combineLatest`, the number
/// its two inputs send).
enum CombiningBridge {
    static let mergeValues = Harness.Contender.async(Harness.sluice) { n in
        for await value in (0..<n / 2).publisher.merge(with: (n / 2..<n).publisher).values { Benchmark.blackHole(value) }
    }

    static let asyncMerge = Harness.Contender.async("AsyncAlgorithms merge") { n in
        for await value in merge((0..<n / 2).async, (n / 2..<n).async) { Benchmark.blackHole(value) }
    }

    static let zipValues = Harness.Contender.async(Harness.sluice) { n in
        for await pair in (0..<n).publisher.zip((0..<n).publisher).values { Benchmark.blackHole(pair.0 &+ pair.1) }
    }

    static let asyncZip = Harness.Contender.async("AsyncAlgorithms zip") { n in
        for await pair in zip((0..<n).async, (0..<n).async) { Benchmark.blackHole(pair.0 &+ pair.1) }
    }

    static let combineLatestValues = Harness.Contender.async(Harness.sluice) { n in
        for await pair in (0..<n / 2).publisher.combineLatest((0..<n / 2).publisher).values {
            Benchmark.blackHole(pair.0 &+ pair.1)
        }
    }

    static let asyncCombineLatest = Harness.Contender.async("AsyncAlgorithms combineLatest") { n in
        for await pair in combineLatest((0..<n / 2).async, (0..<n / 2).async) { Benchmark.blackHole(pair.0 &+ pair.1) }
    }
}

/// `asyncMap` over 100,000 elements with a trivial async transform, with 1 and 8 tasks at
/// once, next to a `TaskGroup` that runs the same transform with as many child tasks at once
/// and hands the results on in order.
extension CombiningBridge {
    @Sendable static func work(_ value: Int) async -> Int { value &* 3 }

    static func asyncMapValues(_ concurrency: Int) -> Harness.Contender {
        Harness.Contender.async(Harness.sluice) { n in
            for await value in (0..<n).publisher.asyncMap(maxConcurrent: concurrency, work).values {
                Benchmark.blackHole(value)
            }
        }
    }

    static func taskGroup(_ concurrency: Int) -> Harness.Contender {
        Harness.Contender.async("TaskGroup, \(concurrency) child tasks at once") { n in
            await withTaskGroup(of: (Int, Int).self) { group in
                var next = 0
                var done = [Int: Int]()
                var deliver = 0
                while next < min(concurrency, n) {
                    let index = next
                    group.addTask { (index, await work(index)) }
                    next += 1
                }
                while let (index, value) = await group.next() {
                    done[index] = value
                    while let ready = done.removeValue(forKey: deliver) {
                        Benchmark.blackHole(ready)
                        deliver += 1
                    }
                    if next < n {
                        let index = next
                        group.addTask { (index, await work(index)) }
                        next += 1
                    }
                }
            }
        }
    }
}
