// Tools of the bridge stress and memory tests: a fast async sequence that counts what it
// produced and tells when its iterators are gone.
import Synchronization
import Sluice

/// Waits until `condition` holds, re-checking it after each `Task.yield()`, and returns
/// whether it did within `attempts` checks. Not a sleep: nothing is ordered by time; it is for
/// effects with no event to await (a task letting go of an object after its last signal).
func eventually(attempts: Int = 2_000_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<attempts {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// A non-suspending async sequence of `0..<limit` (endless when `limit` is nil) that counts
/// the elements it produced; its live iterators are counted in `live`.
struct CountingAsyncSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never

    let limit: Int?
    let produced: ProducedCounter
    let live: LiveCounter?

    init(limit: Int?, produced: ProducedCounter = ProducedCounter(), live: LiveCounter? = nil) {
        self.limit = limit
        self.produced = produced
        self.live = live
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: CountingAsyncSequence
        let token: LiveElement?
        var next = 0

        mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
            if let limit = sequence.limit, next >= limit { return nil }
            defer { next += 1 }
            sequence.produced.add()
            return next
        }

        mutating func next() async -> Int? { await next(isolation: nil) }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self, token: live.map { LiveElement(0, counter: $0) })
    }
}

/// How many elements a producer made so far, and a tripwire: the most it may have made
/// (``allow(_:)``), checked at each element as it is made, so that reading ahead shows at
/// the moment it happens, without waiting to see whether it will.
final class ProducedCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let allowed = Atomic<Int>(.max)
    private let worst = Atomic<Int>(0)

    func add() {
        let now = count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        let over = now - allowed.load(ordering: .acquiring)
        if over > 0 { worst.max(over, ordering: .acquiringAndReleasing) }
    }

    var value: Int { count.load(ordering: .acquiring) }

    /// From now on at most `count` elements may have been made. Set it before the demand
    /// that allows them is given.
    func allow(_ count: Int) { allowed.store(count, ordering: .releasing) }

    /// The most elements made beyond what was allowed at the time (0 if never).
    var overshoot: Int { worst.load(ordering: .acquiring) }
}
