import Benchmark
import BenchmarkSupport
import Dispatch
import OpenCombine
import OpenCombineDispatch

/// OpenCombine 0.14.0's side of the scheduling workloads, with its `DispatchQueue` scheduler
/// (`queue.ocombine`).
enum OpenCombineScheduling {
    static let queue = DispatchQueue(label: "benchmarks.opencombine.scheduling")

    static let receiveOnQueueSink = Harness.Contender.sync("OpenCombine") { n in
        let done = DispatchSemaphore(value: 0)
        let cancellable = (0..<n).publisher.receive(on: queue.ocombine).sink(
            receiveCompletion: { _ in done.signal() }, receiveValue: { Benchmark.blackHole($0) })
        done.wait()
        cancellable.cancel()
    }
}
