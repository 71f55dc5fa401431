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
