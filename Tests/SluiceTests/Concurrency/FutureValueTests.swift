import Sluice
import Testing

@Suite(.timeLimit(.minutes(12))) struct FutureValueTests {
    @Test func aNeverFailingFuturesValueIsItsResult() async {
        let future = Future<Int, Never> { $0(.success(42)) }
        #expect(await future.value == 42)
    }

    @Test func aFailingFuturesValueThrowsTheFailure() async {
        let future = Future<Int, TestError> { $0(.failure(TestError(code: 5))) }
        await #expect(throws: TestError(code: 5)) { try await future.value }
    }

    @Test func aLaterPromiseResumesTheAwaitingTask() async throws {
        let promise = Locked<Future<Int, TestError>.Promise?>(nil)
        let future = Future<Int, TestError> { fulfil in promise.withLock { $0 = fulfil } }
        let shared = UncheckedBox(future)
        let task = Task { try await shared.value.value }
        for _ in 0..<10 { await Task.yield() }
        promise.withLock { $0 }!(.success(7))
        #expect(try await task.value == 7)
    }

    @Test func cancellingTheAwaitingTaskThrowsCancellationError() async {
        let future = Future<Int, TestError> { _ in }   // never fulfilled
        let shared = UncheckedBox(future)
        let task = Task { try await shared.value.value }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func aFulfilledFuturesValueInAnAlreadyCancelledTaskThrowsCancellationError() async {
        let future = Future<Int, TestError> { $0(.success(3)) }
        let shared = UncheckedBox(future)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await shared.value.value
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func aNeverFailingFuturesValueIgnoresTheAwaitingTasksCancellation() async {
        let future = Future<Int, Never> { $0(.success(4)) }
        let shared = UncheckedBox(future)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await shared.value.value
        }
        #expect(await task.value == 4)
    }

    @Test("Future<_, Never>.value in a cancelled task waits for a later promise and returns its value, as documented")
    func aNeverFailingFuturesValueWaitsForALaterPromiseDespiteCancellation() async {
        let promise = Locked<Future<Int, Never>.Promise?>(nil)
        let future = Future<Int, Never> { fulfil in promise.withLock { $0 = fulfil } }
        let shared = UncheckedBox(future)
        let cancelled = Gate()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            cancelled.open()
            return await shared.value.value
        }
        await cancelled.wait()
        // Not needed for the outcome (fulfilled first, the value is returned at once); gives
        // the task the chance to be suspended in the getter, the case this test is about.
        for _ in 0..<100 { await Task.yield() }
        promise.withLock { $0 }!(.success(6))
        #expect(await task.value == 6)
    }
}
