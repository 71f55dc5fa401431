import Benchmark
import Foundation

/// The one configuration every suite shares, and the helper that registers "the same workload
/// for Sluice and for each peer" so that they run side by side in the same process and run.
///
/// Naming: each benchmark is called `"<workload> | <contender>"`; `Benchmarks/compare.py`
/// splits on `" | "` to build the comparison table, and the contender called ``Harness/sluice``
/// is the one every other contender of the workload is compared with.
///
/// ```swift
/// let benchmarks: @Sendable () -> Void = {
///     Harness.register("sequence → sink", [
///         .sync(Harness.sluice) { n in for i in 0..<n { Benchmark.blackHole(i) } },
///     ])
/// }
/// ```
public enum Harness {
    /// The contender name every peer is compared with.
    public static let sluice = "Sluice"

    /// `SLUICE_BENCH_CI=1`: few iterations, small memory workloads (for `.ci/run`).
    ///
    /// ```swift
    /// let count = Harness.isCI ? 10_000 : 10_000_000
    /// ```
    public static let isCI = ProcessInfo.processInfo.environment["SLUICE_BENCH_CI"] == "1"

    /// Elements pushed through the pipeline in one measured iteration of a throughput workload.
    /// Fixed (also in CI) so that allocations per element are comparable between runs.
    ///
    /// ```swift
    /// Benchmark.blackHole(Harness.elementsPerIteration)  // 100_000
    /// ```
    public static let elementsPerIteration = 100_000

    /// Elements a memory workload pushes from a fast producer to a slow consumer.
    ///
    /// ```swift
    /// Benchmark.blackHole(Harness.memoryElements)  // 10_000_000 (100_000 in CI)
    /// ```
    public static let memoryElements = isCI ? 100_000 : 10_000_000

    /// Counts printed unscaled (no K or M), so that `compare.py` reads them as they are.
    static var rawUnits: [BenchmarkMetric: BenchmarkUnits] { [.mallocCountTotal: .count, .peakMemoryResident: .count] }

    /// The configuration of the throughput workloads: wall clock per iteration (divided by
    /// ``elementsPerIteration`` in the table) and mallocs per iteration.
    ///
    /// ```swift
    /// Benchmark("x", configuration: Harness.throughput) { _ in }
    /// ```
    public static var throughput: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .nanoseconds,
            units: rawUnits,
            warmupIterations: isCI ? 1 : 3,
            scalingFactor: .one,
            maxDuration: isCI ? .milliseconds(200) : .seconds(2),
            maxIterations: isCI ? 3 : 200
        )
    }

    /// The configuration of the memory workloads: one iteration, peak resident memory.
    ///
    /// ```swift
    /// Benchmark("x", configuration: Harness.memory) { _ in }
    /// ```
    public static var memory: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
            timeUnits: .nanoseconds,
            units: rawUnits,
            warmupIterations: 0,
            scalingFactor: .one,
            maxDuration: .seconds(1),
            maxIterations: 1
        )
    }

    /// One contender of a workload: its name and the code that moves `n` elements.
    ///
    /// ```swift
    /// let loop = Harness.Contender.sync("plain loop") { n in
    ///     for i in 0..<n { Benchmark.blackHole(i) }
    /// }
    /// ```
    public struct Contender: Sendable {
        /// `"Sluice"`, `"OpenCombine"`, `"AsyncStream"`, …
        public let name: String
        let body: Body

        enum Body {
            case sync(@Sendable (Int) -> Void)
            case async(@Sendable (Int) async -> Void)
        }

        /// A contender whose workload runs synchronously.
        ///
        /// ```swift
        /// .sync("plain loop") { n in for i in 0..<n { Benchmark.blackHole(i) } }
        /// ```
        public static func sync(_ name: String, _ body: @escaping @Sendable (Int) -> Void) -> Contender {
            Contender(name: name, body: .sync(body))
        }

        /// A contender whose workload needs an async context (tasks, `for await`).
        ///
        /// ```swift
        /// .async("AsyncStream") { n in await pump(n) }
        /// ```
        public static func async(_ name: String, _ body: @escaping @Sendable (Int) async -> Void) -> Contender {
            Contender(name: name, body: .async(body))
        }
    }

    /// Registers `workload` once per contender, as `"<workload> | <contender>"`, each iteration
    /// moving `elements` elements.
    ///
    /// ```swift
    /// Harness.register("plain loop", [.sync("baseline") { n in for i in 0..<n { Benchmark.blackHole(i) } }])
    /// ```
    public static func register(
        _ workload: String,
        elements: Int = elementsPerIteration,
        configuration: Benchmark.Configuration = throughput,
        _ contenders: [Contender]
    ) {
        for contender in contenders {
            let name = "\(workload) | \(contender.name)"
            var configuration = configuration
            configuration.tags = ["elements": "\(elements)"]
            switch contender.body {
            case .sync(let body):
                Benchmark(name, configuration: configuration) { benchmark in
                    for _ in benchmark.scaledIterations { body(elements) }
                }
            case .async(let body):
                Benchmark(name, configuration: configuration) { benchmark in
                    for _ in benchmark.scaledIterations { await body(elements) }
                }
            }
        }
    }
}
