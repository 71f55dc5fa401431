import Benchmark
import BenchmarkSupport
import Dispatch
import Sluice

/// Sluice's side of the scheduling workloads; written like the OpenCombine peer, line for line.
/// N is the number of elements the sink receives; a workload on a queue waits for the sink's
/// completion before it returns.
enum SluiceScheduling {
    static let queue = DispatchQueue(label: "benchmarks.sluice.scheduling")

    /// Every value crosses to a serial queue; the sink asks for everything.
    static let receiveOnQueueSink = Harness.Contender.sync(Harness.sluice) { n in
        let done = DispatchSemaphore(value: 0)
        let cancellable = (0..<n).publisher.receive(on: queue).sink(
            receiveCompletion: { _ in done.signal() }, receiveValue: { Benchmark.blackHole($0) })
        done.wait()
        cancellable.cancel()
    }
}
