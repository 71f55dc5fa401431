import Benchmark
import BenchmarkSupport
import OpenCombine

/// Pipelines erased at API boundaries, as most Combine code is written: each boundary is a
/// function the optimiser does not inline, so the publisher's type is hidden from the caller.
/// The rows without erasure are the baseline the boundaries add to.
enum OpenCombineErasure {
    @inline(never)
    static func mapped(_ upstream: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
        upstream.map { $0 &+ 1 }.eraseToAnyPublisher()
    }

    static let mapSink = Harness.Contender.sync("OpenCombine") { n in
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.map { $0 &+ 1 }.sink { Benchmark.blackHole($0) }
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
    }

    static let erasedMapSink = Harness.Contender.sync("OpenCombine") { n in
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = mapped(subject.eraseToAnyPublisher()).sink { Benchmark.blackHole($0) }
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
    }

    static let tenErasedMapsSink = Harness.Contender.sync("OpenCombine") { n in
        let subject = PassthroughSubject<Int, Never>()
        var publisher = subject.eraseToAnyPublisher()
        for _ in 0..<10 { publisher = mapped(publisher) }
        let cancellable = publisher.sink { Benchmark.blackHole($0) }
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
    }
}
