import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// A test that runs an exit test (a child process that must trap): skipped when the
    /// environment sets `SLUICE_SKIP_EXIT_TESTS`, as CI's Thread Sanitizer runs do.
    ///
    /// Under Thread Sanitizer, Swift Testing's exit-test machinery in the test runner (the thread
    /// that waits for each child, its output handling) is where the sanitizer's runtime failed in
    /// its own code in every run that failed without a report: a CHECK in its slot bookkeeping, a
    /// SEGV in its `fclose` interceptor, and a deadlock on its internal locks. The child only traps;
    /// the plain and Address Sanitizer runs run every exit test.
    static var exitTest: Self {
        .disabled(if: ProcessInfo.processInfo.environment["SLUICE_SKIP_EXIT_TESTS"] != nil,
                  "SLUICE_SKIP_EXIT_TESTS is set")
    }
}
