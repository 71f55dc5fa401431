import Benchmark
import BenchmarkSupport
import Sluice

/// Sluice's side of the `@Published` workloads; written like the OpenCombine peer, line for line.
enum SluicePublished {
    final class Model: ObservableObject {
        @Published var value = 0
    }

    /// Each set sends the new value to the one `$value` subscriber.
    static let publishedSetSink = Harness.Contender.sync(Harness.sluice) { n in
        let model = Model()
        let cancellable = model.$value.sink { Benchmark.blackHole($0) }
        for i in 0..<n { model.value = i }
        cancellable.cancel()
    }

    /// Each set fires the object's `objectWillChange` into the one subscriber.
    static let objectWillChangeSink = Harness.Contender.sync(Harness.sluice) { n in
        let model = Model()
        let cancellable = model.objectWillChange.sink { Benchmark.blackHole($0) }
        for i in 0..<n { model.value = i }
        cancellable.cancel()
    }
}
