import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// A test that runs an exit test: skipped when the environment sets `SLUICE_SKIP_EXIT_TESTS`,
    /// as CI's Thread Sanitizer runs do (Tests/SluiceTests/ExitTestTrait.swift says why).
    static var exitTest: Self {
        .disabled(if: ProcessInfo.processInfo.environment["SLUICE_SKIP_EXIT_TESTS"] != nil,
                  "SLUICE_SKIP_EXIT_TESTS is set")
    }
}
