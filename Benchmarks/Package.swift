// swift-tools-version: 6.2
// The benchmarks are a package of their own so that their dependencies (package-benchmark,
// the peers we compare against) never reach Sluice's users. Run from the repository root:
//     python3 Benchmarks/compare.py
import PackageDescription

/// The benchmarks' own code builds without warnings, as the library does (`.ci/run` builds it).
/// A flag of the targets here, not `-Xswiftc`, so that the dependencies' warnings do not count.
let warningsAsErrors = SwiftSetting.unsafeFlags(["-warnings-as-errors"])

/// Every suite gets the same dependencies: the harness, Sluice and the peers.
func suite(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "BenchmarkSupport",
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "Sluice", package: "Sluice"),
            .product(name: "SluiceTesting", package: "Sluice"),
            .product(name: "SluiceExt", package: "Sluice"),
            .product(name: "OpenCombine", package: "OpenCombine"),
            .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        ],
        path: "Benchmarks/\(name)",
        // Sluice and OpenCombine both extend `Sequence` with `publisher`: a file sees only the
        // members of the modules it imports, so each contender lives in a file of its own.
        swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), warningsAsErrors],
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "SluiceBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [.executable(name: "Soak", targets: ["Soak"])],
    dependencies: [
        .package(name: "Sluice", path: "../"),
        .package(
            url: "https://github.com/ordo-one/benchmark",
            from: "1.38.1",
            traits: ["MallocInterposer"]
        ),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", exact: "1.1.4"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sluice", package: "Sluice"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            path: "Support",
            swiftSettings: [warningsAsErrors]
        ),
        suite("Core"),
        suite("Bridge"),
        suite("Memory"),
        // Issue 29's soak, a plain executable (not a package-benchmark suite: it runs for a
        // fixed time and reports peak memory, rounds and order violations); see its main.swift.
        .executableTarget(
            name: "Soak",
            dependencies: [
                .product(name: "Sluice", package: "Sluice"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/Soak",
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), warningsAsErrors]
        ),
    ],
    swiftLanguageModes: [.v6]
)
