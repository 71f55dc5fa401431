import Benchmark
import BenchmarkSupport
import Sluice

/// Sluice's side of the memory workload: a `Producer` whose `send` suspends without demand,
/// consumed through each `values` variant.
///
/// The buffering variants request `.unlimited`, so the producer never waits: the buffer keeps
/// 64 elements and drops the rest (the loop sees fewer than `n`); what is measured is that
/// memory stays bounded.
enum SluiceMemory {
    /// One element requested per `next()`.
    static let values = Harness.Contender.async(Harness.sluice) { n in
        for await value in Pipes.counting(n).values { slowConsume(value) }
    }

    static let valuesPrefetch = Harness.Contender.async("Sluice values(prefetch: 64)") { n in
        for await value in Pipes.counting(n).values(prefetch: 64) { slowConsume(value) }
    }

    static let valuesBufferingNewest = Harness.Contender.async("Sluice values(bufferingPolicy: .bufferingNewest(64))") { n in
        for await value in Pipes.counting(n).values(bufferingPolicy: .bufferingNewest(64)) { slowConsume(value) }
    }

    static let valuesBufferingOldest = Harness.Contender.async("Sluice values(bufferingPolicy: .bufferingOldest(64))") { n in
        for await value in Pipes.counting(n).values(bufferingPolicy: .bufferingOldest(64)) { slowConsume(value) }
    }
}
