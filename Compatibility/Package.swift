// swift-tools-version: 6.2
// Other people's test suites run against Sluice: a package of its own, like Benchmarks/, so that
// its test code never reaches Sluice's users. Its sources are not in the repository: prepare.sh
// fetches OpenCombine 0.14.0 from its git address and generates Generated/OpenCombineTests from
// OpenCombine's Tests/OpenCombineTests (its imports swapped for Sluice's). See README.md.
//     bash Compatibility/prepare.sh && python3 Compatibility/compat.py run
import PackageDescription

let package = Package(
    name: "SluiceCompatibility",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Sluice", path: "../")
    ],
    targets: [
        // Named as in OpenCombine: its crash tests (Helpers/AssertCrashes.swift) rerun themselves
        // in a child process with the filter "OpenCombineTests.<Class>/<test>".
        .testTarget(
            name: "OpenCombineTests",
            dependencies: [
                .product(name: "Sluice", package: "Sluice"),
                .product(name: "SluiceFoundation", package: "Sluice"),
            ],
            path: "Generated/OpenCombineTests",
            swiftSettings: [
                // The suite's own switch for testing Apple's Combine; prepare.sh turns its
                // `import Combine` into `import Sluice` + `import SluiceFoundation`.
                .define("OPENCOMBINE_COMPATIBILITY_TEST"),
                // OpenCombine's tests are Swift 5 code (no strict concurrency).
                .swiftLanguageMode(.v5),
            ]
        )
    ]
)
