import Dispatch
import Testing
import Sluice

@Suite("Future in Swift 6: a Sendable promise, a Sendable future", .timeLimit(.minutes(12)))
struct FutureSendableTests {
    @Test("Future's doc examples compile and run: the promise called from a dispatch queue and from a Task")
    func docExamples() async {
        let fromQueue = Future<Int, Never> { promise in
            DispatchQueue.global().async { promise(.success(42)) }
        }
        let fromTask = Future<Int, Never> { promise in
            Task { promise(.success(42)) }
        }
        #expect(await fromQueue.value == 42)
        #expect(await fromTask.value == 42)
    }

    @MainActor @Test("await future.value works on the main actor (the future is Sendable when its output is)")
    func valueOnMainActor() async throws {
        let future = Future<Int, Never> { promise in
            DispatchQueue.global().async { promise(.success(7)) }
        }
        #expect(await future.value == 7)
        let failable = Future<String, any Error> { promise in Task { promise(.success("ok")) } }
        #expect(try await failable.value == "ok")
    }

    @Test("a Future<_, Never>'s value keeps waiting through a cancel of the awaiting task, and returns the value once fulfilled")
    func neverFailingValueIgnoresCancel() async {
        let fulfil = Locked<Future<Int, Never>.Promise?>(nil)
        let future = Future<Int, Never> { promise in fulfil.withLock { $0 = promise } }
        let waiting = Task { await future.value }
        waiting.cancel()
        fulfil.withLock { $0 }?(.success(5))
        #expect(await waiting.value == 5)
    }
}
