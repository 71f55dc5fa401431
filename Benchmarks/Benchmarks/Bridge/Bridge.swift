import Benchmark
import BenchmarkSupport

// The bridge: `for await` over publishers and async producers feeding a consumer in another
// task, with Swift concurrency's own channels as the peers.
let benchmarks: @Sendable () -> Void = {
    Harness.register("baseline: for await, non-suspending sequence", [
        AsyncPeers.forAwaitSyncSequence,
    ])
    Harness.register("for await over (0..<N).publisher.values", [
        OpenCombineBridge.values,
    ])
    Harness.register("producer task → consumer task", [
        AsyncPeers.streamUnbounded,
        AsyncPeers.streamBufferingNewest,
        AsyncPeers.asyncChannel,
        AsyncPeers.mpscChannel,
    ])
}
