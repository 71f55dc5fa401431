import Benchmark
import BenchmarkSupport

// The bridge: `for await` over publishers and async producers feeding a consumer in another
// task, with Swift concurrency's own channels as the peers.
let benchmarks: @Sendable () -> Void = {
    Harness.register("baseline: for await, non-suspending sequence", [
        AsyncPeers.forAwaitSyncSequence,
    ])
    Harness.register("for await over (0..<N).publisher.values", [
        SluiceBridge.values,
        SluiceBridge.valuesPrefetch,
        OpenCombineBridge.values,
    ])
    Harness.register("for await over (0..<N).publisher.map.filter.values", [
        SluiceBridge.mapFilterValues,
        OpenCombineBridge.mapFilterValues,
    ])
    Harness.register("for await over (0..<N).publisher.values on a custom actor", [
        SluiceBridge.valuesOnActor,
        OpenCombineBridge.valuesOnActor,
        AsyncPeers.forAwaitSyncSequenceOnActor,
    ])
    Harness.register("for await over (0..<N).publisher.values on @MainActor", [
        SluiceBridge.valuesOnMainActor,
        OpenCombineBridge.valuesOnMainActor,
        AsyncPeers.forAwaitSyncSequenceOnMainActor,
    ])
    Harness.register("for await over merge of two (0..<N/2).publisher .values", [
        CombiningBridge.mergeValues,
        CombiningBridge.asyncMerge,
    ])
    Harness.register("for await over zip of two (0..<N).publisher .values (time per pair)", [
        CombiningBridge.zipValues,
        CombiningBridge.asyncZip,
    ])
    Harness.register("for await over combineLatest of two (0..<N/2).publisher .values (time per input element)", [
        CombiningBridge.combineLatestValues,
        CombiningBridge.asyncCombineLatest,
    ])
    Harness.register("asyncMap(maxConcurrent: 1) over (0..<N).publisher, for await over its values", [
        CombiningBridge.asyncMapValues(1),
        CombiningBridge.taskGroup(1),
    ])
    Harness.register("asyncMap(maxConcurrent: 8) over (0..<N).publisher, for await over its values", [
        CombiningBridge.asyncMapValues(8),
        CombiningBridge.taskGroup(8),
    ])
    Harness.register("await Future(…).value, one future per element", [
        SluiceBridge.futureValue,
        OpenCombineBridge.futureValue,
    ])
    Harness.register("await (0..<N).publisher.lastValue()", [
        SluiceBridge.lastValue,
    ])
    Harness.register("(0..<N).async.publisher → sink", [
        SluiceBridge.asyncSequencePublisher,
    ])
    Harness.register("an async sequence iterated on @MainActor → sink", [
        SluiceBridge.mainActorSequencePublisher,
        SluiceBridge.asyncSequencePublisherOnMainActor,
    ])
    Harness.register("(0..<N).publisher → sink(isolation: MainActor.shared)", [
        SluiceBridge.isolatedSinkOnMainActor,
        SchedulingBridge.receiveOnMainActorSinkAsPeer,
    ])
    Harness.register("for await over (0..<N).publisher.buffer(size: 64, prefetch: .keepFull, whenFull: .dropOldest).values", [
        BufferingBridge.bufferValues,
        BufferingBridge.openCombineBufferValues,
    ])
    Harness.register("(0..<N).publisher.receive(on: the main actor) → sink, made on the main actor", [
        SchedulingBridge.receiveOnMainActorSink,
        SchedulingBridge.openCombineReceiveOnMainQueue,
    ])
    Harness.register("Producer → values, producer and consumer in different tasks", [
        SluiceBridge.producer,
        SluiceBridge.producerPrefetch,
        AsyncPeers.streamUnbounded,
        AsyncPeers.streamBufferingNewest,
        AsyncPeers.asyncChannel,
        AsyncPeers.mpscChannel,
    ])
}
