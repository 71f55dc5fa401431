import Benchmark
import BenchmarkSupport

// The core: a synchronous publisher, a `create` body and a subject, each into a sink, Sluice next
// to OpenCombine where it has the feature.
let benchmarks: @Sendable () -> Void = {
    Harness.register("baseline: plain loop", [
        .sync("for-in") { n in
            for i in 0..<n { Benchmark.blackHole(i) }
        },
    ])
    Harness.register("(0..<N).publisher → sink", [
        SluiceCore.sequenceSink,
        OpenCombineCore.sequenceSink,
    ])
    Harness.register("(0..<N).publisher.map.filter → sink", [
        SluiceCore.mapFilterSink,
        OpenCombineCore.mapFilterSink,
    ])
    Harness.register("(0..<N).publisher, a chain of ten operators → sink", [
        SluiceCore.tenOperatorsSink,
        OpenCombineCore.tenOperatorsSink,
    ])
    Harness.register("(0..<N).publisher.reduce → sink", [
        SluiceCore.reduceSink,
        OpenCombineCore.reduceSink,
    ])
    Harness.register("(0..<N).publisher.collect → sink", [
        SluiceCore.collectSink,
        OpenCombineCore.collectSink,
    ])
    Harness.register("(0..<N).publisher.first(where: last element) → sink", [
        SluiceCore.firstWhereSink,
        OpenCombineCore.firstWhereSink,
    ])
    Harness.register("Deferred { (0..<N).publisher }.map.filter → sink", [
        SluiceCore.lazyMapFilterSink,
        OpenCombineCore.lazyMapFilterSink,
    ])
    Harness.register("Deferred { (0..<N).publisher }, a chain of ten operators → sink", [
        SluiceCore.lazyTenOperatorsSink,
        OpenCombineCore.lazyTenOperatorsSink,
    ])
    Harness.register("Deferred { (0..<N).publisher }.reduce → sink", [
        SluiceCore.lazyReduceSink,
        OpenCombineCore.lazyReduceSink,
    ])
    Harness.register("Deferred { (0..<N).publisher }.collect → sink", [
        SluiceCore.lazyCollectSink,
        OpenCombineCore.lazyCollectSink,
    ])
    Harness.register("Deferred { (0..<N).publisher }.first(where: last element) → sink", [
        SluiceCore.lazyFirstWhereSink,
        OpenCombineCore.lazyFirstWhereSink,
    ])
    Harness.register("Just(i) → sink, one subscription per element", [
        SluiceCore.justSink,
        OpenCombineCore.justSink,
    ])
    Harness.register("AnyPublisher.emitting { send each } → sink", [
        SluiceCore.createSink,
    ])
    Harness.register("PassthroughSubject.send → sink", [
        SluiceCore.subjectSink,
        OpenCombineCore.subjectSink,
    ])
    Harness.register("PassthroughSubject.map → sink", [
        SluiceErasure.mapSink,
        OpenCombineErasure.mapSink,
    ])
    Harness.register("PassthroughSubject.map.eraseToAnyPublisher() → sink", [
        SluiceErasure.erasedMapSink,
        OpenCombineErasure.erasedMapSink,
    ])
    Harness.register("PassthroughSubject, ten × (map, eraseToAnyPublisher()) → sink", [
        SluiceErasure.tenErasedMapsSink,
        OpenCombineErasure.tenErasedMapsSink,
    ])
    Harness.register("merge of two (0..<N/2).publisher → sink", [
        SluiceCombining.mergeSink,
    ])
    Harness.register("zip of two (0..<N).publisher → sink (time per pair)", [
        SluiceCombining.zipSink,
        OpenCombineCombining.zipSink,
    ])
    Harness.register("combineLatest of two PassthroughSubjects → sink (time per send)", [
        SluiceCombining.combineLatestSink,
    ])
    Harness.register("(0..<N).publisher.flatMap { Just($0) } → sink", [
        SluiceCombining.flatMapJustSink,
        OpenCombineCombining.flatMapJustSink,
    ])
    Harness.register("(0..<N).publisher.flatMap { CollectionOfOne($0).publisher } → sink", [
        SluiceCombining.flatMapSequenceSink,
        OpenCombineCombining.flatMapSequenceSink,
    ])
    Harness.register("PassthroughSubject.share() → 4 sinks (time per send)", [
        SluiceCombining.shareFourSinks,
        OpenCombineCombining.shareFourSinks,
    ])
    Harness.register("SluiceExt: withLatestFrom of two PassthroughSubjects → sink (time per send)", [
        SluiceExtOperators.withLatestFromSink,
    ])
    Harness.register("SluiceExt: PassthroughSubject.share(replay: 1) → 4 sinks (time per send)", [
        SluiceExtOperators.shareReplayFourSinks,
    ])
    Harness.register("SluiceExt: [four PassthroughSubjects].combineLatest() → sink (time per send)", [
        SluiceExtOperators.combineLatestFourSink,
    ])
    for (live, shown) in [(100, "100"), (1_000, "1,000"), (16_000, "16,000")] {
        Harness.register(
            "subscribe + cancel a sink on a PassthroughSubject with \(shown) live sinks (time per pair)",
            elements: 1_000,
            [SluiceCore.subscribeAndCancel(live: live), OpenCombineCore.subscribeAndCancel(live: live)])
    }
    Harness.register("PassthroughSubject.send → 4 sinks (time per send)", [
        SluiceCore.subjectFourSinks,
        OpenCombineCore.subjectFourSinks,
    ])
    Harness.register("(0..<N).publisher.receive(on: serial DispatchQueue) → sink", [
        SluiceScheduling.receiveOnQueueSink,
        OpenCombineScheduling.receiveOnQueueSink,
    ])
    Harness.register("debounce on ImmediateScheduler, N subject sends → sink (time per send)", [
        SluiceTiming.debounceImmediate,
        OpenCombineTiming.debounceImmediate,
    ])
    Harness.register("throttle(latest: true) on ImmediateScheduler, N subject sends → sink (time per send)", [
        SluiceTiming.throttleImmediate,
        OpenCombineTiming.throttleImmediate,
    ])
    Harness.register("debounce on TestScheduler, advanced past each send → sink (time per send)", [
        SluiceTiming.debounceTestScheduler,
    ])
    Harness.register("throttle(latest: true) on TestScheduler, advanced past each send → sink (time per send)", [
        SluiceTiming.throttleTestScheduler,
    ])
    Harness.register("debounce on a serial DispatchQueue, a burst of N subject sends → sink (time per send)", [
        SluiceTiming.debounceQueue,
        OpenCombineTiming.debounceQueue,
    ])
    Harness.register("throttle(latest: true) on a serial DispatchQueue, a burst of N subject sends → sink (time per send)", [
        SluiceTiming.throttleQueue,
        OpenCombineTiming.throttleQueue,
    ])
    Harness.register("@Published set → sink of $value", [
        SluicePublished.publishedSetSink,
        OpenCombinePublished.publishedSetSink,
    ])
    Harness.register("@Published set → sink of objectWillChange", [
        SluicePublished.objectWillChangeSink,
        OpenCombinePublished.objectWillChangeSink,
    ])
}
