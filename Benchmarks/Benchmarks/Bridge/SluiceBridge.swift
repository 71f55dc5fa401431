import Benchmark
import BenchmarkSupport
import AsyncAlgorithms
import Sluice

/// Sluice's side of the bridge workloads.
enum SluiceBridge {
    /// `values` over a publisher that delivers inside `request(_:)`: `next()` never suspends.
    static let values = Harness.Contender.async(Harness.sluice) { n in
        for await value in (0..<n).publisher.values { Benchmark.blackHole(value) }
    }

    /// Two operators between the sequence and the loop; the filter drops every other element.
    static let mapFilterValues = Harness.Contender.async(Harness.sluice) { n in
        for await value in (0..<n).publisher.map({ $0 &* 3 }).filter({ $0 & 1 == 0 }).values {
            Benchmark.blackHole(value)
        }
    }

    static let valuesPrefetch = Harness.Contender.async("Sluice values(prefetch: 1024)") { n in
        for await value in (0..<n).publisher.values(prefetch: 1024) { Benchmark.blackHole(value) }
    }

    /// The same loop on a custom actor: `next(isolation:)` keeps it there, no hop per element.
    static let valuesOnActor = Harness.Contender.async(Harness.sluice) { n in
        await Consumer().consume(n)
    }

    /// The same loop on the main actor.
    static let valuesOnMainActor = Harness.Contender.async(Harness.sluice) { n in
        await consumeOnMainActor(n)
    }

    @MainActor
    static func consumeOnMainActor(_ n: Int) async {
        for await value in (0..<n).publisher.values { Benchmark.blackHole(value) }
    }

    actor Consumer {
        func consume(_ n: Int) async {
            for await value in (0..<n).publisher.values { Benchmark.blackHole(value) }
        }
    }

    /// Awaiting a completed `Future`'s value, one future per element.
    static let futureValue = Harness.Contender.async(Harness.sluice) { n in
        for i in 0..<n {
            Benchmark.blackHole(await Future<Int, Never> { $0(.success(i)) }.value)
        }
    }

    /// A `Producer` task sending into `values` (demand one per `next()`): each `send` waits
    /// for the consumer's demand.
    static let producer = Harness.Contender.async(Harness.sluice) { n in
        for await value in Pipes.counting(n).values { Benchmark.blackHole(value) }
    }

    /// The same with up to 64 requested ahead: the producer sends a batch per resumption.
    static let producerPrefetch = Harness.Contender.async("Sluice values(prefetch: 64)") { n in
        for await value in Pipes.counting(n).values(prefetch: 64) { Benchmark.blackHole(value) }
    }

    /// `lastValue()` over a sequence: every element reaches the awaiting subscriber, which keeps
    /// the latest.
    static let lastValue = Harness.Contender.async(Harness.sluice) { n in
        Benchmark.blackHole(await (0..<n).publisher.lastValue())
    }

    /// `sink(isolation: MainActor.shared)` over a sequence, awaited until it finishes: one
    /// request per value, the next only after the main actor has processed the previous one.
    static let isolatedSinkOnMainActor = Harness.Contender.async(Harness.sluice) { n in
        await sinkOnMainActor(n)
    }

    @MainActor
    static func sinkOnMainActor(_ n: Int) async {
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let cancellable = (0..<n).publisher.sink(
            isolation: MainActor.shared,
            receiveCompletion: { _ in finish.finish() },
            receiveValue: { Benchmark.blackHole($0) }
        )
        for await _ in finished {}
        cancellable.cancel()
    }

    /// `MainActor.publisher(iterating:)` into a sink: the sequence is made and iterated on
    /// the main actor, and the sink receives there too. The sequence is the floor's
    /// (`AsyncPeers.Counting`), whose `next(isolation:)` stays on the caller's actor:
    /// `(0..<N).async` has only `next()`, which leaves the actor for every element.
    static let mainActorSequencePublisher = Harness.Contender.async(Harness.sluice) { n in
        await subscribeAndWait { MainActor.publisher { AsyncPeers.Counting(count: n) } }
    }

    /// `publisher(iteratingOn: MainActor.shared)`: the same sequence, made off the main
    /// actor and iterated on it.
    static let asyncSequencePublisherOnMainActor = Harness.Contender.async("Sluice publisher(iteratingOn: MainActor.shared)") { n in
        await subscribeAndWait { AsyncPeers.Counting(count: n).publisher(iteratingOn: MainActor.shared) }
    }

    /// Subscribes a sink to the publisher `make` returns and waits for the completion.
    static func subscribeAndWait<P: Publisher<Int, Never>>(_ make: () -> P) async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            make().subscribe(Subscribers.Sink<Int, Never>(
                receiveCompletion: { _ in finished.resume() },
                receiveValue: { Benchmark.blackHole($0) }
            ))
        }
    }

    /// `AsyncSequence.publisher` into a sink, awaited until it finishes.
    static let asyncSequencePublisher = Harness.Contender.async(Harness.sluice) { n in
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            let sink = Subscribers.Sink<Int, Never>(
                receiveCompletion: { _ in finished.resume() },
                receiveValue: { Benchmark.blackHole($0) }
            )
            (0..<n).async.publisher.subscribe(sink)
        }
    }
}
