import Benchmark
import BenchmarkSupport
import Dispatch
import OpenCombine
import OpenCombineDispatch
import Sluice

/// Landing on the main actor: `receive(on: .mainActor)` into a sink made there, next to
/// `sink(isolation: MainActor.shared)` (SluiceBridge) and OpenCombine's `receive(on:
/// DispatchQueue.main)`. Both libraries' `publisher` are in scope here, so each workload names its
/// sequence publisher's module.
enum SchedulingBridge {
    /// The signals are made on the main actor, so the scheduler runs them there without a hop.
    static let receiveOnMainActorSink = Harness.Contender.async(Harness.sluice) { n in
        await sluiceReceiveOnMainActor(n)
    }

    /// The same workload as the peer of `sink(isolation: MainActor.shared)`, which issue 31
    /// holds to within 1.5× of it.
    static let receiveOnMainActorSinkAsPeer = Harness.Contender.async("Sluice receive(on: .mainActor) → sink") { n in
        await sluiceReceiveOnMainActor(n)
    }

    @MainActor
    static func sluiceReceiveOnMainActor(_ n: Int) async {
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let cancellable = Sluice.Publishers.Sequence<Range<Int>, Never>(sequence: 0..<n).receive(on: .mainActor).sink(
            receiveCompletion: { _ in finish.finish() }, receiveValue: { Benchmark.blackHole($0) })
        for await _ in finished {}
        cancellable.cancel()
    }

    static let openCombineReceiveOnMainQueue = Harness.Contender.async("OpenCombine") { n in
        await openCombineReceiveOnMainQueue(n)
    }

    @MainActor
    static func openCombineReceiveOnMainQueue(_ n: Int) async {
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let cancellable = OpenCombine.Publishers.Sequence<Range<Int>, Never>(sequence: 0..<n)
            .receive(on: DispatchQueue.main.ocombine)
            .sink(receiveCompletion: { _ in finish.finish() }, receiveValue: { Benchmark.blackHole($0) })
        for await _ in finished {}
        cancellable.cancel()
    }
}

/// A buffer between a fast source and a `for await` loop (each `next()` asks for one value).
enum BufferingBridge {
    static let bufferValues = Harness.Contender.async(Harness.sluice) { n in
        let buffered = Sluice.Publishers.Sequence<Range<Int>, Never>(sequence: 0..<n)
            .buffer(size: 64, prefetch: .keepFull, whenFull: .dropOldest)
        for await value in buffered.values { Benchmark.blackHole(value) }
    }

    static let openCombineBufferValues = Harness.Contender.async("OpenCombine") { n in
        let buffered = OpenCombine.Publishers.Sequence<Range<Int>, Never>(sequence: 0..<n)
            .buffer(size: 64, prefetch: .keepFull, whenFull: .dropOldest)
        for await value in buffered.values { Benchmark.blackHole(value) }
    }
}
