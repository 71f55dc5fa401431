import Foundation

/// Compiles a snippet to SIL (where Swift 6 checks regions: `-typecheck` alone would not)
/// against the Sluice module this test binary was built with, in Swift 6 language mode, and
/// returns the compiler's exit status and diagnostics. The snippet may import any module of the
/// package (they are all built next to the test binary).
func compile(_ source: String) throws -> (status: Int32, output: String) {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    // …/<configuration>/SluicePackageTests.xctest → …/<configuration>/Modules
    let modules = executable.deletingLastPathComponent().appendingPathComponent("Modules")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-typecheck-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("main.swift")
    try source.write(to: file, atomically: true, encoding: .utf8)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swiftc", "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-I", modules.path, file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}
