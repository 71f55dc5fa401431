import Foundation
import Sluice
import SluiceTesting
import Testing

/// A failure for tests.
struct Oops: Error, Equatable {}

/// A value that says which thread sent it, and its rank among that thread's values.
struct Tagged: Equatable, Sendable {
    let sender: Int
    let rank: Int
}

/// Whether each sender's values arrived in the order it sent them, and how many of each.
func perSenderOrder(_ values: [Tagged], senders: Int) -> (inOrder: Bool, counts: [Int]) {
    var last = [Int](repeating: -1, count: senders)
    var counts = [Int](repeating: 0, count: senders)
    for value in values {
        guard value.rank > last[value.sender] else { return (false, counts) }
        last[value.sender] = value.rank
        counts[value.sender] += 1
    }
    return (true, counts)
}

/// A weak reference, to check that nothing keeps an object alive.
struct Weak<Object: AnyObject>: @unchecked Sendable {
    // Safe: only read after the threads that used the object have returned.
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}

/// Carries a thread-safe test double that is not declared `Sendable` into `runConcurrently`.
/// Safe: only subjects, relays and recorders go in it, whose entry points the tests call are
/// documented thread-safe.
struct Shared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension Trait where Self == ConditionTrait {
    /// A test that runs an exit test: skipped when the environment sets `SLUICE_SKIP_EXIT_TESTS`,
    /// as CI's Thread Sanitizer runs do (Tests/SluiceTests/ExitTestTrait.swift says why).
    static var exitTest: Self {
        .disabled(if: ProcessInfo.processInfo.environment["SLUICE_SKIP_EXIT_TESTS"] != nil,
                  "SLUICE_SKIP_EXIT_TESTS is set")
    }
}
