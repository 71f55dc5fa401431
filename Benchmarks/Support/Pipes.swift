import AsyncAlgorithms
import Sluice

/// The producer → consumer pipes that more than one suite runs: a producer task sends
/// `0..<n`, the calling task consumes each element with `consume`. The Bridge suite consumes
/// with `Benchmark.blackHole`, the Memory suite with a deliberately slow consumer.
///
/// ```swift
/// await Pipes.asyncChannel(100) { Benchmark.blackHole($0) }
/// for await value in Pipes.counting(100).values(prefetch: 64) { Benchmark.blackHole(value) }
/// ```
public enum Pipes {
    /// Sluice: a `Producer` that sends `0..<n`, each `send` suspending until there is demand.
    ///
    /// ```swift
    /// for await value in Pipes.counting(3).values { print(value) }   // 0, 1, 2
    /// ```
    @inlinable
    public static func counting(_ n: Int) -> Producer<Int, Never> {
        Producer { sender in
            for i in 0..<n {
                guard await sender.send(i) else { return }
            }
        }
    }

    /// An `AsyncStream` with `policy`, fed by a task that yields `0..<n` and finishes.
    ///
    /// ```swift
    /// await Pipes.asyncStream(3, policy: .unbounded) { print($0) }
    /// ```
    @inlinable
    public static func asyncStream(
        _ n: Int, policy: AsyncStream<Int>.Continuation.BufferingPolicy, consume: (Int) -> Void
    ) async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: policy)
        let producer = Task {
            for i in 0..<n { continuation.yield(i) }
            continuation.finish()
        }
        for await value in stream { consume(value) }
        await producer.value
    }

    /// swift-async-algorithms' `AsyncChannel`, a rendezvous: each `send` suspends until the
    /// consumer takes the element.
    ///
    /// ```swift
    /// await Pipes.asyncChannel(3) { print($0) }
    /// ```
    @inlinable
    public static func asyncChannel(_ n: Int, consume: (Int) -> Void) async {
        let channel = AsyncChannel<Int>()
        let producer = Task {
            for i in 0..<n { await channel.send(i) }
            channel.finish()
        }
        for await value in channel { consume(value) }
        await producer.value
    }
}
