import Benchmark
import BenchmarkSupport
import Dispatch
import OpenCombine
import OpenCombineDispatch

/// OpenCombine 0.14.0's side of the time-based workloads, with its `ImmediateScheduler` and its
/// `DispatchQueue` scheduler (`queue.ocombine`).
enum OpenCombineTiming {
    static let queue = DispatchQueue(label: "benchmarks.opencombine.timing")

    static let debounceImmediate = Harness.Contender.sync("OpenCombine") { n in
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.debounce(for: .milliseconds(1), scheduler: ImmediateScheduler.shared)
            .sink { Benchmark.blackHole($0) }
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
    }

    static let throttleImmediate = Harness.Contender.sync("OpenCombine") { n in
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.throttle(for: .milliseconds(1), scheduler: ImmediateScheduler.shared, latest: true)
            .sink { Benchmark.blackHole($0) }
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
    }

    static let debounceQueue = Harness.Contender.sync("OpenCombine") { n in
        let done = DispatchSemaphore(value: 0)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.debounce(for: .milliseconds(1), scheduler: queue.ocombine)
            .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { Benchmark.blackHole($0) })
        for i in 0..<n { subject.send(i) }
        subject.send(completion: .finished)
        done.wait()
        cancellable.cancel()
    }

    static let throttleQueue = Harness.Contender.sync("OpenCombine") { n in
        let done = DispatchSemaphore(value: 0)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.throttle(for: .milliseconds(1), scheduler: queue.ocombine, latest: true)
            .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { Benchmark.blackHole($0) })
        for i in 0..<n { subject.send(i) }
        subject.send(completion: .finished)
        done.wait()
        cancellable.cancel()
    }
}
