import AsyncAlgorithms
import Benchmark
import BenchmarkSupport

// A fast producer and a slow consumer over `Harness.memoryElements` elements: peak resident
// memory shows whether the pipe buffers without bound (AsyncStream unbounded) or pushes back
// on the producer (AsyncChannel, Sluice's `Producer` into `values`). The baseline is the same
// consumer over a plain sequence: what the process needs with no pipe at all.
let benchmarks: @Sendable () -> Void = {
    Harness.register(
        "fast producer, slow consumer",
        elements: Harness.memoryElements,
        configuration: Harness.memory,
        [
            MemoryPeers.plainSequence,
            SluiceMemory.values,
            SluiceMemory.valuesPrefetch,
            SluiceMemory.valuesBufferingNewest,
            SluiceMemory.valuesBufferingOldest,
            MemoryPeers.streamUnbounded,
            MemoryPeers.asyncChannel,
        ]
    )
}

/// The consumer's work per element: enough to fall behind a producer that only yields.
func slowConsume(_ value: Int) {
    for _ in 0..<20 { Benchmark.blackHole(value) }
}

enum MemoryPeers {
    /// The same consumer over a plain sequence: the floor every pipe is measured against.
    static let plainSequence = Harness.Contender.async("baseline: plain sequence") { n in
        for value in 0..<n { slowConsume(value) }
    }

    static let streamUnbounded = Harness.Contender.async("AsyncStream (unbounded)") { n in
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        let producer = Task {
            for i in 0..<n { continuation.yield(i) }
            continuation.finish()
        }
        for await value in stream { slowConsume(value) }
        await producer.value
    }

    static let asyncChannel = Harness.Contender.async("AsyncChannel") { n in
        let channel = AsyncChannel<Int>()
        let producer = Task {
            for i in 0..<n { await channel.send(i) }
            channel.finish()
        }
        for await value in channel { slowConsume(value) }
        await producer.value
    }
}
