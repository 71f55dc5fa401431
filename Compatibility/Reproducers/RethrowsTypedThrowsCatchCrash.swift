// Reproducer for the `toolchain-defect` exclusions in ConcurrencyTests/PublisherConcurrencyTests.swift
// (ExpectedFailures.txt). The compiler crashes (SILGen, emitThrow -> emitExistentialErasure) on
// a `do`/`catch is E` around a `rethrows` function whose argument conformance throws a typed
// error (`throws(E)`). OpenCombine's test wraps `publisher.values`' iterator in an actor whose
// `next()` is `rethrows`: Sluice's iterator throws the publisher's `Failure` (typed throws, as
// DESIGN.md asks), Combine's throws `any Error`, so only Sluice's makes the compiler crash.
// No Sluice involved here. Check with:
//     swiftc -parse-as-library -emit-sil Compatibility/Reproducers/RethrowsTypedThrowsCatchCrash.swift -o /dev/null
// Swift 6.3.1 (Linux), Swift 5 and 6 language modes alike: "Stack dump: ... While silgen
// emitFunction SIL function "@$s...4testyyYaKF"". Possibly the SILGen emitThrow defect that
// swiftlang/swift#88948 fixes (after 6.3.1; not verified).
final class RefError: Error {}

struct FailingIterator: AsyncIteratorProtocol {
    mutating func next() async throws(RefError) -> Int? { throw RefError() }
}

actor IteratorWrapper<Iterator: AsyncIteratorProtocol> {
    var iterator: Iterator
    init(_ iterator: Iterator) { self.iterator = iterator }

    func next() async rethrows -> Iterator.Element? {
        var copy = iterator
        let result = try await copy.next()
        iterator = copy
        return result
    }
}

func test() async throws {
    let wrapper = IteratorWrapper(FailingIterator())
    do {
        _ = try await wrapper.next()
    } catch is RefError {
    }
}
