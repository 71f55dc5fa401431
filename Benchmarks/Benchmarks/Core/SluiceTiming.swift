import Benchmark
import BenchmarkSupport
import Dispatch
import Sluice
import SluiceTesting

/// Sluice's side of the time-based workloads; written like the OpenCombine peer, line for line.
/// N values are sent to a subject, one after the other, into the operator and a sink; the time is
/// per value sent.
enum SluiceTiming {
    static let queue = DispatchQueue(label: "benchmarks.sluice.timing")

    /// On the immediate scheduler every value's quiet period has passed at once: each goes out.
    static let debounceImmediate = Harness.Contender.sync(Harness.sluice) { n in
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.debounce(for: .milliseconds(1), scheduler: ImmediateScheduler.shared)
            .sink { Benchmark.blackHole($0) }
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
    }

    static let throttleImmediate = Harness.Contender.sync(Harness.sluice) { n in
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.throttle(for: .milliseconds(1), scheduler: ImmediateScheduler.shared, latest: true)
            .sink { Benchmark.blackHole($0) }
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
    }

    /// Virtual time moved past the quiet period after every value: each goes out, on the
    /// advancing thread.
    static let debounceTestScheduler = Harness.Contender.sync(Harness.sluice) { n in
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.debounce(for: .milliseconds(1), scheduler: scheduler).sink { Benchmark.blackHole($0) }
        for i in 0..<n {
            subject.send(i)
            scheduler.advance(by: .milliseconds(1))
        }
        cancellable.cancel()
    }

    /// One throttle window per value.
    static let throttleTestScheduler = Harness.Contender.sync(Harness.sluice) { n in
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.throttle(for: .milliseconds(1), scheduler: scheduler, latest: true)
            .sink { Benchmark.blackHole($0) }
        for i in 0..<n {
            subject.send(i)
            scheduler.advance(by: .milliseconds(1))
        }
        cancellable.cancel()
    }

    /// A burst of N values into a debounce on a serial queue, then the completion, awaited: the
    /// cost of each value that moves the deadline.
    static let debounceQueue = Harness.Contender.sync(Harness.sluice) { n in
        let done = DispatchSemaphore(value: 0)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.debounce(for: .milliseconds(1), scheduler: queue)
            .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { Benchmark.blackHole($0) })
        for i in 0..<n { subject.send(i) }
        subject.send(completion: .finished)
        done.wait()
        cancellable.cancel()
    }

    static let throttleQueue = Harness.Contender.sync(Harness.sluice) { n in
        let done = DispatchSemaphore(value: 0)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.throttle(for: .milliseconds(1), scheduler: queue, latest: true)
            .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { Benchmark.blackHole($0) })
        for i in 0..<n { subject.send(i) }
        subject.send(completion: .finished)
        done.wait()
        cancellable.cancel()
    }
}
