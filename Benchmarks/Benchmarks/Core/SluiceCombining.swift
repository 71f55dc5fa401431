import Benchmark
import BenchmarkSupport
import Sluice

/// Sluice's side of the combining workloads; written like the OpenCombine peer, line for line.
/// N is the number of elements the sink receives.
enum SluiceCombining {
    /// Two synchronous halves, merged: the second runs once the first has finished.
    static let mergeSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = (0..<n / 2).publisher.merge(with: (n / 2..<n).publisher).sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    /// The first sequence is queued whole by the zip, then paired as the second runs.
    static let zipSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = (0..<n).publisher.zip((0..<n).publisher).sink { Benchmark.blackHole($0.0 &+ $0.1) }
        cancellable.cancel()
    }

    /// Sends alternate between the two subjects; every send after the first two makes a tuple.
    static let combineLatestSink = Harness.Contender.sync(Harness.sluice) { n in
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let cancellable = left.combineLatest(right).sink { Benchmark.blackHole($0.0 &+ $0.1) }
        for i in 0..<n / 2 {
            left.send(i)
            right.send(i)
        }
        cancellable.cancel()
    }
}

/// Flattening and sharing.
extension SluiceCombining {
    /// One `Just` per element: while the sink has demand, flatMap's scalar path delivers its
    /// value without subscribing to it (no inner subscription, no allocation).
    static let flatMapJustSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = (0..<n).publisher.flatMap { Just($0) }.sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    /// One inner publisher per element that is not a `Just`: every inner is subscribed (its
    /// subscription is the allocation), the general path.
    static let flatMapSequenceSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = (0..<n).publisher.flatMap { CollectionOfOne($0).publisher }.sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    static let shareFourSinks = Harness.Contender.sync(Harness.sluice) { n in
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let cancellables = (0..<4).map { _ in shared.sink { Benchmark.blackHole($0) } }
        for i in 0..<n { subject.send(i) }
        for cancellable in cancellables { cancellable.cancel() }
    }
}
