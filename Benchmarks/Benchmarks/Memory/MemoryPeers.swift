import Benchmark
import BenchmarkSupport

/// The peers' side of the memory workload, and its baseline.
enum MemoryPeers {
    /// The same consumer over a plain sequence: the floor every pipe is measured against.
    static let plainSequence = Harness.Contender.async("baseline: plain sequence") { n in
        for value in 0..<n { slowConsume(value) }
    }

    /// Buffers everything the producer yields while the consumer lags.
    static let streamUnbounded = Harness.Contender.async("AsyncStream (unbounded)") { n in
        await Pipes.asyncStream(n, policy: .unbounded, consume: slowConsume)
    }

    /// A rendezvous: the producer waits for the consumer.
    static let asyncChannel = Harness.Contender.async("AsyncChannel") { n in
        await Pipes.asyncChannel(n, consume: slowConsume)
    }
}
