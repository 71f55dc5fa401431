import Benchmark
import BenchmarkSupport
import Sluice
import SluiceExt

/// SluiceExt's operators on the shapes where CombineExt's design allocates per value (a
/// `withLatestFrom` over `combineLatest`, a replay buffer, an array per `combineLatest` link);
/// OpenCombine has none of them, so these rows have no peer. N is the number of sends.
enum SluiceExtOperators {
    /// Every send samples the other subject's latest value.
    static let withLatestFromSink = Harness.Contender.sync(Harness.sluice) { n in
        let source = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let cancellable = source.withLatestFrom(other) { $0 &+ $1 }.sink { Benchmark.blackHole($0) }
        other.send(1)
        for i in 0..<n { source.send(i) }
        cancellable.cancel()
    }

    /// Each send is kept for replay (one) and delivered to four sinks.
    static let shareReplayFourSinks = Harness.Contender.sync(Harness.sluice) { n in
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share(replay: 1)
        let cancellables = (0..<4).map { _ in shared.sink { Benchmark.blackHole($0) } }
        for i in 0..<n { subject.send(i) }
        for cancellable in cancellables { cancellable.cancel() }
    }

    /// Sends go round the four subjects; every send after the first four makes an array.
    static let combineLatestFourSink = Harness.Contender.sync(Harness.sluice) { n in
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let cancellable = subjects.combineLatest().sink { Benchmark.blackHole($0.count) }
        for i in 0..<n { subjects[i & 3].send(i) }
        cancellable.cancel()
    }
}
