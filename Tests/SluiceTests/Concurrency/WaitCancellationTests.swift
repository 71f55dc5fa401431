import Dispatch
import Sluice
import SluiceTesting
import Testing

/// The test helpers' waits cannot hang CI: a Swift Testing time limit ends a test by cancelling
/// its task, and each wait then returns and records an issue naming what it waited for. These
/// tests cancel the waiting task themselves (what `.timeLimit` does) and expect that issue.
@Suite("A wait whose event never comes fails, by name, when its task is cancelled", .timeLimit(.minutes(12)))
struct WaitCancellationTests {
    /// Runs `wait` in a child task, cancels it (as a time limit would), and returns what it returned.
    private func cancelled<T: Sendable>(_ wait: @escaping @Sendable () async -> T) async -> T {
        await withTaskGroup(of: T.self) { group in
            group.addTask(operation: wait)
            group.cancelAll()
            return await group.next()!
        }
    }

    @Test("Gate.wait ends on cancellation, returns false and records an issue naming what it waited for")
    func gate() async {
        let gate = Gate()
        await withKnownIssue {
            let opened = await cancelled { await gate.wait(for: "a gate nobody opens") }
            #expect(!opened)
        } matching: { $0.description.contains("a gate nobody opens") }
    }

    @Test("IsolationLog.wait(for:) ends on cancellation and records an issue saying how many entries came")
    func isolationLog() async {
        let log = IsolationLog<Int>()
        log.record(1, isolated: true)
        await withKnownIssue {
            await cancelled { await log.wait(for: 2) }
        } matching: { $0.description.contains("waiting for 2 isolation log entries; 1 came") }
    }

    @Test("Gate.waitIgnoringCancellation outlives a cancel, then gives up after its bound with an issue")
    func gateIgnoringCancellation() async {
        let gate = Gate()
        await withKnownIssue {
            let opened = await cancelled { await gate.waitIgnoringCancellation(for: "a held body", bound: .milliseconds(10)) }
            #expect(!opened)
        } matching: { $0.description.contains("a held body") }
    }

    @Test("a blocking semaphore wait gives up after its bound and records an issue")
    func semaphore() {
        withKnownIssue {
            let signalled = DispatchSemaphore(value: 0).wait(for: "a signal nobody sends", bound: .milliseconds(10))
            #expect(!signalled)
        } matching: { $0.description.contains("a signal nobody sends") }
    }
}
