// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Sluice",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .library(name: "SluiceTesting", targets: ["SluiceTesting"]),
        .library(name: "SluiceFoundation", targets: ["SluiceFoundation"]),
        .library(name: "SluiceExt", targets: ["SluiceExt"]),
    ],
    targets: [
        .target(name: "Sluice"),
        .target(name: "SluiceTesting", dependencies: ["Sluice"]),
        .target(name: "SluiceFoundation", dependencies: ["Sluice"]),
        .target(name: "SluiceExt", dependencies: ["Sluice"]),
        .executableTarget(name: "SluiceExamples", dependencies: ["Sluice", "SluiceFoundation", "SluiceTesting"]),
        .testTarget(name: "SluiceTests", dependencies: ["Sluice", "SluiceTesting"]),
        .testTarget(name: "SluiceTestingTests", dependencies: ["Sluice", "SluiceTesting"]),
        .testTarget(name: "SluiceConformanceTests", dependencies: ["Sluice", "SluiceTesting", "SluiceExt"]),
        .testTarget(name: "SluiceFoundationTests", dependencies: ["Sluice", "SluiceTesting", "SluiceFoundation"]),
        .testTarget(name: "SluiceExamplesTests", dependencies: ["SluiceExamples", "Sluice"]),
        .testTarget(name: "SluiceExtTests", dependencies: ["SluiceExt", "Sluice", "SluiceTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
