import Benchmark
import BenchmarkSupport
import OpenCombine

/// OpenCombine 0.14.0, the peer of the combining workloads where it has the operator (it has
/// `zip`, `flatMap` and `share`, not `merge` or `combineLatest`).
enum OpenCombineCombining {
    /// The first sequence is queued whole by the zip, then paired as the second runs.
    static let zipSink = Harness.Contender.sync("OpenCombine") { n in
        let cancellable = (0..<n).publisher.zip((0..<n).publisher).sink { Benchmark.blackHole($0.0 &+ $0.1) }
        cancellable.cancel()
    }
}

/// Flattening and sharing.
extension OpenCombineCombining {
    /// One inner publisher per element: the inner's subscription is the allocation.
    static let flatMapJustSink = Harness.Contender.sync("OpenCombine") { n in
        let cancellable = (0..<n).publisher.flatMap { Just($0) }.sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    static let flatMapSequenceSink = Harness.Contender.sync("OpenCombine") { n in
        let cancellable = (0..<n).publisher.flatMap { CollectionOfOne($0).publisher }.sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    static let shareFourSinks = Harness.Contender.sync("OpenCombine") { n in
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let cancellables = (0..<4).map { _ in shared.sink { Benchmark.blackHole($0) } }
        for i in 0..<n { subject.send(i) }
        for cancellable in cancellables { cancellable.cancel() }
    }
}
