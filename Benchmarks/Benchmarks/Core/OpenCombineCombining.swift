import Benchmark
import BenchmarkSupport
import OpenCombine

/// OpenCombine 0.14.0, the peer of the combining workloads where it has the operator (it has
/// `zip`, not `merge` or `combineLatest`).
enum OpenCombineCombining {
    /// The first sequence is queued whole by the zip, then paired as the second runs.
    static let zipSink = Harness.Contender.sync("OpenCombine") { n in
        let cancellable = (0..<n).publisher.zip((0..<n).publisher).sink { Benchmark.blackHole($0.0 &+ $0.1) }
        cancellable.cancel()
    }
}
