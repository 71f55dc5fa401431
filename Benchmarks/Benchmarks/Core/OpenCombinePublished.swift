import Benchmark
import BenchmarkSupport
import OpenCombine

/// OpenCombine 0.14.0's side of the `@Published` workloads.
enum OpenCombinePublished {
    final class Model: ObservableObject {
        @Published var value = 0
    }

    /// Each set sends the new value to the one `$value` subscriber.
    static let publishedSetSink = Harness.Contender.sync("OpenCombine") { n in
        let model = Model()
        let cancellable = model.$value.sink { Benchmark.blackHole($0) }
        for i in 0..<n { model.value = i }
        cancellable.cancel()
    }

    /// Each set fires the object's `objectWillChange` into the one subscriber.
    static let objectWillChangeSink = Harness.Contender.sync("OpenCombine") { n in
        let model = Model()
        let cancellable = model.objectWillChange.sink { Benchmark.blackHole($0) }
        for i in 0..<n { model.value = i }
        cancellable.cancel()
    }
}
