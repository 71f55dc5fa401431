import Benchmark
import BenchmarkSupport
import OpenCombine

/// OpenCombine 0.14.0's `values` (its `AsyncPublisher`), the peer of Sluice's `values`.
enum OpenCombineBridge {
    static let values = Harness.Contender.async("OpenCombine") { n in
        for await value in (0..<n).publisher.values { Benchmark.blackHole(value) }
    }

    /// Two operators between the sequence and the loop; the filter drops every other element.
    static let mapFilterValues = Harness.Contender.async("OpenCombine") { n in
        for await value in (0..<n).publisher.map({ $0 &* 3 }).filter({ $0 & 1 == 0 }).values {
            Benchmark.blackHole(value)
        }
    }

    static let valuesOnActor = Harness.Contender.async("OpenCombine") { n in
        await Consumer().consume(n)
    }

    static let valuesOnMainActor = Harness.Contender.async("OpenCombine") { n in
        await consumeOnMainActor(n)
    }

    @MainActor
    static func consumeOnMainActor(_ n: Int) async {
        for await value in (0..<n).publisher.values { Benchmark.blackHole(value) }
    }

    actor Consumer {
        func consume(_ n: Int) async {
            for await value in (0..<n).publisher.values { Benchmark.blackHole(value) }
        }
    }

    static let futureValue = Harness.Contender.async("OpenCombine") { n in
        for i in 0..<n {
            Benchmark.blackHole(await Future<Int, Never> { $0(.success(i)) }.value)
        }
    }
}
