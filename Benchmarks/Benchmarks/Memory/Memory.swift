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
