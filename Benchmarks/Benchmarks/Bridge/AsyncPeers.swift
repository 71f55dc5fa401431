import AsyncAlgorithms
import Benchmark
import BenchmarkSupport

/// Swift concurrency's own ways to move elements from a producer task to a consumer task.
/// Each consumes in the benchmark's task while a second task produces.
enum AsyncPeers {
    /// `for await` over a sequence whose `next()` never suspends: the floor of any bridge.
    static let forAwaitSyncSequence = Harness.Contender.async("(0..<N).async") { n in
        for await value in (0..<n).async { Benchmark.blackHole(value) }
    }

    /// The floor of the isolated `values` workloads: a minimal sequence that never suspends
    /// and runs `next(isolation:)` on the caller's actor (so the loop stays there with no
    /// executor switch, as `values` does), on a custom actor: what `for await` itself costs
    /// there. (`(0..<N).async` is no floor
    /// on an actor: it has no `next(isolation:)` and leaves the actor for every element.)
    static let forAwaitSyncSequenceOnActor = Harness.Contender.async(floorName) { n in
        await Consumer().consume(n)
    }

    /// The same floor on the main actor.
    static let forAwaitSyncSequenceOnMainActor = Harness.Contender.async(floorName) { n in
        await consumeOnMainActor(n)
    }

    static let floorName = "minimal isolated AsyncSequence (floor)"

    @MainActor
    static func consumeOnMainActor(_ n: Int) async {
        for await value in Counting(count: n) { Benchmark.blackHole(value) }
    }

    actor Consumer {
        func consume(_ n: Int) async {
            for await value in Counting(count: n) { Benchmark.blackHole(value) }
        }
    }

    /// `0..<count` as an AsyncSequence whose `next(isolation:)` returns at once.
    struct Counting: AsyncSequence {
        typealias Failure = Never
        let count: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            typealias Failure = Never
            var current = 0
            let count: Int

            // nonisolated(nonsending), as `values`' iterator: with the protocol's `isolated`
            // parameter instead, each call would switch executors twice on an actor (the
            // floor measured 78 ns per element on the main actor), so it would be no floor.
            nonisolated(nonsending) mutating func next(isolation actor: (any Actor)?) async -> Int? {
                guard current < count else { return nil }
                defer { current += 1 }
                return current
            }

            nonisolated(nonsending) mutating func next() async -> Int? { await next(isolation: nil) }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count) }
    }

    static let streamUnbounded = Harness.Contender.async("AsyncStream (unbounded)") { n in
        await Pipes.asyncStream(n, policy: .unbounded) { Benchmark.blackHole($0) }
    }

    /// Drops elements while the consumer lags; the time is per element produced.
    static let streamBufferingNewest = Harness.Contender.async("AsyncStream (bufferingNewest 1024)") { n in
        await Pipes.asyncStream(n, policy: .bufferingNewest(1024)) { Benchmark.blackHole($0) }
    }

    /// A rendezvous: each `send` suspends until the consumer takes the element.
    static let asyncChannel = Harness.Contender.async("AsyncChannel") { n in
        await Pipes.asyncChannel(n) { Benchmark.blackHole($0) }
    }

    /// swift-async-algorithms 1.1.4's MultiProducerSingleConsumerAsyncChannel, watermarks 512/1024.
    static let mpscChannel = Harness.Contender.async("MPSC channel (watermark 512/1024)") { n in
        await withTaskGroup(of: Void.self) { group in
            var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
                of: Int.self,
                backpressureStrategy: .watermark(low: 512, high: 1024)
            )
            var channel = channelAndSource.takeChannel()
            var source = consume channelAndSource.source
            group.addTask {
                while let value = await channel.next() { Benchmark.blackHole(value) }
            }
            for i in 0..<n {
                do { try await source.send(i) } catch { fatalError("the channel finished early: \(error)") }
            }
            source.finish()
        }
    }
}
