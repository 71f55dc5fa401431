@_spi(Internals) import Sluice

/// A one-shot signal a test can await without sleeping.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var isOpen: Bool { state.withLock { $0.open } }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }
}

/// Opens a gate when deinitialised: proves that whoever held it has let go.
final class DeinitProbe: Sendable {
    let gate: Gate
    init(_ gate: Gate) { self.gate = gate }
    deinit { gate.open() }
}

struct TestError: Error, Equatable {
    let code: Int
}

/// A non-suspending async sequence of `0..<count` that counts its `next()` calls, can fail
/// at the end, and opens `released` when its iterator is gone.
struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = TestError

    let count: Int
    var failure: TestError? = nil
    let nextCalls = Locked(0)
    let released = Gate()

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: CountingSequence
        let probe: DeinitProbe
        var index = 0

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestError) -> Int? {
            sequence.nextCalls.withLock { $0 += 1 }
            if index < sequence.count {
                defer { index += 1 }
                return index
            }
            if let failure = sequence.failure { throw failure }
            return nil
        }

        mutating func next() async throws(TestError) -> Int? {
            try await next(isolation: nil)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self, probe: DeinitProbe(released))
    }

    var calls: Int { nextCalls.withLock { $0 } }
}

/// Carries a test tool that is thread-safe but not declared `Sendable` (ControllablePublisher
/// and its subscriptions keep their state behind a lock) into another task.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
