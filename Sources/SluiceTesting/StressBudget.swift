#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(ucrt)
import ucrt
#elseif canImport(Darwin)
import Darwin
#endif

/// The number of operations a stress test of this package performs (`package`: for Sluice's
/// own test targets, not part of SluiceTesting's API).
///
/// The plain `swift test` run does the full count (at least 100,000 operations per publisher
/// family). Under a sanitizer every memory access is instrumented (Thread Sanitizer: about
/// 5–15× slower, Address Sanitizer about 2×), and the interleavings it needs to see are
/// already there after a fraction of the iterations, so `.ci/run` sets
/// `SLUICE_STRESS_DIVISOR` for those runs (10 under Thread Sanitizer, 2 under Address
/// Sanitizer) and each count is divided by it.
package enum StressBudget {
    /// `SLUICE_STRESS_DIVISOR`, or 1.
    package static let divisor: Int = {
        guard let text = getenv("SLUICE_STRESS_DIVISOR").map({ String(cString: $0) }),
            let value = Int(text), value > 0
        else { return 1 }
        return value
    }()

    /// A further divisor for the task that sets it: a mutant test runs a stress family's check
    /// on a broken source to see it fail, and needs no more than the minimum to see that.
    @TaskLocal package static var reduction = 1

    /// `operations` scaled down by ``divisor`` and ``reduction``, never below `minimum`.
    package static func scaled(_ operations: Int, minimum: Int = 100) -> Int {
        max(operations / (divisor * reduction), minimum)
    }
}
