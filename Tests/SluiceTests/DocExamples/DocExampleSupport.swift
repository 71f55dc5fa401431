// Helpers for the doc-comment examples' tests (the other files of this folder).

/// An `AsyncSequence` that is deliberately not `Sendable` (a class with mutable state that its
/// iterator reads), standing for the examples' `Entries` and `EventSequence`.
class ScriptedSequence: AsyncSequence {
    var remaining: [String]

    init(_ elements: [String]) { remaining = elements }

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: ScriptedSequence
        mutating func next() async -> String? {
            sequence.remaining.isEmpty ? nil : sequence.remaining.removeFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
}

/// The first `count` elements of `stream` (fewer if it finishes first).
func prefix<Element>(_ count: Int, of stream: AsyncStream<Element>) async -> [Element] {
    var elements: [Element] = []
    for await element in stream {
        elements.append(element)
        if elements.count == count { break }
    }
    return elements
}

/// Suspends, yielding the main actor to the work queued on it, until `condition` holds or the
/// task is cancelled (so that the suite's time limit ends a wait that would never end).
@MainActor func yieldUntil(_ condition: () -> Bool) async {
    while !condition() && !Task.isCancelled { await Task.yield() }
}
