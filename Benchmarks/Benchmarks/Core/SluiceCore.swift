import Benchmark
import BenchmarkSupport
import Sluice

/// Sluice's side of the core workloads; written like the OpenCombine peer, line for line.
enum SluiceCore {
    static let sequenceSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = (0..<n).publisher.sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    /// Two one-for-one operators, every other element dropped by the filter.
    static let mapFilterSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = (0..<n).publisher
            .map { $0 &* 3 }
            .filter { $0 & 1 == 0 }
            .sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    /// Ten operators, none dropping more than a few elements: map, filter, compactMap, scan,
    /// removeDuplicates, map, filter, dropFirst, prefix(while:), map.
    static let tenOperatorsSink = Harness.Contender.sync(Harness.sluice) { n in
        let first = (0..<n).publisher
            .map { (value: Int) -> Int in value &+ 1 }
            .filter { (value: Int) -> Bool in value > 0 }
            .compactMap { (value: Int) -> Int? in value }
            .scan(0) { (_: Int, value: Int) -> Int in value }
            .removeDuplicates()
        let cancellable = first
            .map { (value: Int) -> Int in value &* 2 }
            .filter { (value: Int) -> Bool in value & 1 == 0 }
            .dropFirst(1)
            .prefix { (value: Int) -> Bool in value >= 0 }
            .map { (value: Int) -> Int in value >> 1 }
            .sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    static let reduceSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = (0..<n).publisher.reduce(0, &+).sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    static let collectSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = (0..<n).publisher.collect().sink { Benchmark.blackHole($0.count) }
        cancellable.cancel()
    }

    /// Searches every element: the match is the last one.
    static let firstWhereSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = (0..<n).publisher.first { $0 == n - 1 }.sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    static let subjectSink = Harness.Contender.sync(Harness.sluice) { n in
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink { Benchmark.blackHole($0) }
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
    }

    /// `AnyPublisher.emitting` whose body sends every element into a sink with unlimited demand
    /// (no peer: OpenCombine has no `create`).
    static let createSink = Harness.Contender.sync(Harness.sluice) { n in
        let publisher = AnyPublisher<Int, Never>.emitting { emitter in
            for i in 0..<n { emitter.send(i) }
            emitter.send(completion: .finished)
        }
        let cancellable = publisher.sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    /// A `Just` per element, each into a sink of its own: the cost of one subscription.
    static let justSink = Harness.Contender.sync(Harness.sluice) { n in
        for i in 0..<n { _ = Just(i).sink { Benchmark.blackHole($0) } }
    }

    /// `live` sinks on one subject, made once outside the measured iterations; then, per
    /// element, one more sink subscribed and cancelled (the newest, so a search from the oldest
    /// would cross them all).
    static func subscribeAndCancel(live: Int) -> Harness.Contender {
        let subject = PassthroughSubject<Int, Never>()
        let sinks = (0..<live).map { _ in subject.sink { Benchmark.blackHole($0) } }
        return .sync(Harness.sluice) { n in
            for _ in 0..<n { subject.sink { Benchmark.blackHole($0) }.cancel() }
            withExtendedLifetime(sinks) {}
        }
    }

    /// A subject with four subscribers: each `send` reaches all of them.
    static let subjectFourSinks = Harness.Contender.sync(Harness.sluice) { n in
        let subject = PassthroughSubject<Int, Never>()
        let cancellables = (0..<4).map { _ in subject.sink { Benchmark.blackHole($0) } }
        for i in 0..<n { subject.send(i) }
        for cancellable in cancellables { cancellable.cancel() }
    }

    // The same operators over `Deferred { (0..<n).publisher }`: Combine's `Publishers.Sequence`
    // overloads (`map`, `filter`, `reduce`, … on a sequence publisher) compute an array at once,
    // so only over an upstream that is not a sequence publisher do these rows run the operators.

    static let lazyMapFilterSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = Deferred { (0..<n).publisher }
            .map { $0 &* 3 }
            .filter { $0 & 1 == 0 }
            .sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    static let lazyTenOperatorsSink = Harness.Contender.sync(Harness.sluice) { n in
        let first = Deferred { (0..<n).publisher }
            .map { (value: Int) -> Int in value &+ 1 }
            .filter { (value: Int) -> Bool in value > 0 }
            .compactMap { (value: Int) -> Int? in value }
            .scan(0) { (_: Int, value: Int) -> Int in value }
            .removeDuplicates()
        let cancellable = first
            .map { (value: Int) -> Int in value &* 2 }
            .filter { (value: Int) -> Bool in value & 1 == 0 }
            .dropFirst(1)
            .prefix { (value: Int) -> Bool in value >= 0 }
            .map { (value: Int) -> Int in value >> 1 }
            .sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    static let lazyReduceSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = Deferred { (0..<n).publisher }.reduce(0, &+).sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }

    static let lazyCollectSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = Deferred { (0..<n).publisher }.collect().sink { Benchmark.blackHole($0.count) }
        cancellable.cancel()
    }

    static let lazyFirstWhereSink = Harness.Contender.sync(Harness.sluice) { n in
        let cancellable = Deferred { (0..<n).publisher }.first { $0 == n - 1 }.sink { Benchmark.blackHole($0) }
        cancellable.cancel()
    }
}
