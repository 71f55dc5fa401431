import Benchmark
import BenchmarkSupport
import OpenCombine

/// OpenCombine 0.14.0's `values` (its `AsyncPublisher`), the peer of Sluice's `values`.
enum OpenCombineBridge {
    static let values = Harness.Contender.async("OpenCombine") { n in
        for await value in (0..<n).publisher.values { Benchmark.blackHole(value) }
    }
}
