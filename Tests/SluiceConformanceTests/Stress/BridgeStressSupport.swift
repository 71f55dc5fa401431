// Tools of the bridge stress and memory tests: a fast async sequence that counts what it
// produced and tells when its iterators are gone.
import Synchronization
@_spi(Internals) import Sluice

/// Opens ``allReleased`` once `expected` objects have reported their release.
final class ReleaseGauge: Sendable {
    let expected: Int
    private let count = Atomic<Int>(0)
    /// Opened when the last expected release arrives.
    let allReleased = StressGate()

    init(expected: Int) { self.expected = expected }

    func released() {
        if count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == expected { allReleased.open() }
    }

    var releasedCount: Int { count.load(ordering: .acquiring) }
}

/// Reports its own release to a gauge; an iterator holds one, so the test sees it go.
final class ReleaseToken: Sendable {
    private let gauge: ReleaseGauge?
    init(_ gauge: ReleaseGauge?) { self.gauge = gauge }
    deinit { gauge?.released() }
}

/// A non-suspending async sequence of `0..<limit` (endless when `limit` is nil) that counts
/// the elements it produced; each iterator reports its release to `gauge`.
struct CountingAsyncSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never

    let limit: Int?
    let produced: ProducedCounter
    let gauge: ReleaseGauge?

    init(limit: Int?, produced: ProducedCounter = ProducedCounter(), gauge: ReleaseGauge? = nil) {
        self.limit = limit
        self.produced = produced
        self.gauge = gauge
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: CountingAsyncSequence
        let token: ReleaseToken
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
        AsyncIterator(sequence: self, token: ReleaseToken(gauge))
    }
}

/// How many elements a producer made so far.
final class ProducedCounter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.wrappingAdd(1, ordering: .acquiringAndReleasing) }
    var value: Int { count.load(ordering: .acquiring) }
}
