// swift-tools-version: 6.2
// Other people's code run against Sluice: a package of its own, like Benchmarks/, so that its
// dependencies and test code never reach Sluice's users. Its sources are not in the repository:
// prepare.sh fetches OpenCombine 0.14.0 and combine-schedulers 1.2.2 from their git addresses and
// generates Generated/ (OpenCombine's tests with their imports swapped for Sluice's;
// combine-schedulers' sources and tests unchanged). See README.md.
//     bash Compatibility/run.sh && bash Compatibility/run-combine-schedulers.sh
import PackageDescription

let combineSchedulersSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("ImmutableWeakCaptures"),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "SluiceCompatibility",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Sluice", path: "../"),
        // What combine-schedulers depends on besides Combine (xctest-dynamic-overlay is the
        // package of its IssueReporting module).
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.0.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", exact: "1.13.1"),
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
        ),
        // combine-schedulers supports Linux through OpenCombine's module names: these two
        // re-export Sluice under them (its Internal/Platform.swift asks for `OpenCombine`, the
        // rest imports `OpenCombineShim`).
        .target(name: "OpenCombine", dependencies: [.product(name: "Sluice", package: "Sluice")], path: "Shim/OpenCombine"),
        .target(
            name: "OpenCombineShim",
            dependencies: ["OpenCombine", .product(name: "SluiceFoundation", package: "Sluice")],
            path: "Shim/OpenCombineShim"),
        // combine-schedulers 1.2.2, sources and tests unchanged, with the settings of its own
        // manifest (Swift 6 and its upcoming features).
        .target(
            name: "CombineSchedulers",
            dependencies: [
                "OpenCombineShim",
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ],
            path: "Generated/CombineSchedulers",
            swiftSettings: combineSchedulersSettings),
        .testTarget(
            name: "CombineSchedulersTests", dependencies: ["CombineSchedulers"],
            path: "Generated/CombineSchedulersTests", swiftSettings: combineSchedulersSettings),
    ]
)
