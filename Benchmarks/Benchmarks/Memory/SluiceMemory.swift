import Benchmark
import BenchmarkSupport
import Sluice

/// Sluice's side of the memory workload: a `Producer` whose `send` suspends without demand,
/// consumed through `values` (one element requested per `next()`).
enum SluiceMemory {
    static let producerValues = Harness.Contender.async(Harness.sluice) { n in
        let producer = Producer<Int, Never> { sender in
            for i in 0..<n {
                guard await sender.send(i) else { return }
            }
        }
        for await value in producer.values { slowConsume(value) }
    }
}
