import Sluice
import SluiceTesting
import Testing

// Each test binds the operator's result without a type annotation, so that overload
// resolution is free, then pins the inferred type and checks what it delivers.

@Suite("Just's specialised operators: Combine's result types, computed when called", .timeLimit(.minutes(12)))
struct JustOperatorsTests {
    @Test("map, tryMap, compactMap and filter apply their closure once, at call time")
    func transforms() {
        var calls = 0
        let mapped = Just(1).map { value -> String in
            calls += 1
            return "\(value)"
        }
        pin(mapped, as: Just<String>.self)
        #expect(calls == 1)
        #expect(outcome(of: mapped) == finished("1"))
        #expect(outcome(of: mapped) == finished("1"))
        #expect(calls == 1)

        let tried = Just(2).tryMap { $0 * 10 }
        pin(tried, as: Result<Int, any Error>.Publisher.self)
        #expect(outcome(of: tried) == finished(20))
        let thrown = Just(2).tryMap { _ -> Int in throw Thrown(code: 1) }
        #expect(outcome(of: thrown) == failed(Thrown(code: 1)))

        let compacted = Just("7").compactMap(Int.init)
        pin(compacted, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: compacted) == finished(7))
        #expect(outcome(of: Just("x").compactMap(Int.init)) == finished())

        let kept = Just(4).filter { $0.isMultiple(of: 2) }
        pin(kept, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: kept) == finished(4))
        #expect(outcome(of: Just(3).filter { $0.isMultiple(of: 2) }) == finished())
    }

    @Test("mapError and setFailureType retype to a Result publisher that never fails")
    func failureTypes() {
        let mapped = Just(1).mapError(absurd)
        pin(mapped, as: Result<Int, Thrown>.Publisher.self)
        #expect(outcome(of: mapped) == finished(1))
        let retyped = Just(1).setFailureType(to: Thrown.self)
        pin(retyped, as: Result<Int, Thrown>.Publisher.self)
        #expect(outcome(of: retyped) == finished(1))
    }

    @Test("scan and reduce publish one result; their try forms fail with what the closure threw")
    func accumulators() {
        let scanned = Just(2).scan(10, +)
        pin(scanned, as: Result<Int, Never>.Publisher.self)
        #expect(outcome(of: scanned) == finished(12))
        let reduced = Just(2).reduce(10, *)
        pin(reduced, as: Result<Int, Never>.Publisher.self)
        #expect(outcome(of: reduced) == finished(20))

        let tryScanned = Just(2).tryScan(10, +)
        pin(tryScanned, as: Result<Int, any Error>.Publisher.self)
        #expect(outcome(of: tryScanned) == finished(12))
        #expect(outcome(of: Just(2).tryScan(10) { _, _ -> Int in throw Thrown(code: 2) }) == failed(Thrown(code: 2)))
        let tryReduced = Just(2).tryReduce(10, *)
        pin(tryReduced, as: Result<Int, any Error>.Publisher.self)
        #expect(outcome(of: tryReduced) == finished(20))
        #expect(outcome(of: Just(2).tryReduce(10) { _, _ -> Int in throw Thrown(code: 3) }) == failed(Thrown(code: 3)))
    }

    @Test("removeDuplicates, replaceError, replaceEmpty, retry, first, last, min and max return the Just itself")
    func identities() {
        let just = Just(5)
        var compared = false
        let results: [Just<Int>] = [
            just.removeDuplicates(), just.removeDuplicates { _, _ in compared = true; return true },
            just.replaceError(with: 0), just.replaceEmpty(with: 0), just.retry(3),
            just.first(), just.last(), just.min(), just.max(),
            just.min { _, _ in compared = true; return true }, just.max { _, _ in compared = true; return true },
        ]
        #expect(results.allSatisfy { $0 == just })
        #expect(!compared)
        let deduplicated = just.removeDuplicates()
        pin(deduplicated, as: Just<Int>.self)
        let smallest = just.min(by: <)
        pin(smallest, as: Just<Int>.self)
    }

    @Test("tryRemoveDuplicates calls the predicate once, so a throw fails the result")
    func tryRemoveDuplicates() {
        var calls = 0
        let kept = Just(5).tryRemoveDuplicates { _, _ in calls += 1; return true }
        pin(kept, as: Result<Int, any Error>.Publisher.self)
        #expect(calls == 1)
        #expect(outcome(of: kept) == finished(5))
        #expect(outcome(of: Just(5).tryRemoveDuplicates { _, _ in throw Thrown(code: 4) }) == failed(Thrown(code: 4)))
    }

    @Test("collect, count, contains and allSatisfy publish their answer as a Just")
    func reductions() {
        let collected = Just(1).collect()
        pin(collected, as: Just<[Int]>.self)
        #expect(outcome(of: collected) == finished([1]))
        let counted = Just("a").count()
        pin(counted, as: Just<Int>.self)
        #expect(outcome(of: counted) == finished(1))
        let containsOne = Just(1).contains(1)
        pin(containsOne, as: Just<Bool>.self)
        #expect(outcome(of: containsOne) == finished(true))
        #expect(outcome(of: Just(1).contains(2)) == finished(false))
        let containsWhere = Just(1).contains { $0 > 0 }
        pin(containsWhere, as: Just<Bool>.self)
        #expect(outcome(of: containsWhere) == finished(true))
        let all = Just(1).allSatisfy { $0 > 1 }
        pin(all, as: Just<Bool>.self)
        #expect(outcome(of: all) == finished(false))
    }

    @Test("tryContains and tryAllSatisfy publish a Result: the answer, or the error thrown")
    func tryReductions() {
        let contained = Just(1).tryContains { $0 == 1 }
        pin(contained, as: Result<Bool, any Error>.Publisher.self)
        #expect(outcome(of: contained) == finished(true))
        #expect(outcome(of: Just(1).tryContains { _ in throw Thrown(code: 5) }) == failed(Thrown(code: 5)))
        let all = Just(1).tryAllSatisfy { $0 == 2 }
        pin(all, as: Result<Bool, any Error>.Publisher.self)
        #expect(outcome(of: all) == finished(false))
        #expect(outcome(of: Just(1).tryAllSatisfy { _ in throw Thrown(code: 6) }) == failed(Thrown(code: 6)))
    }

    @Test("ignoreOutput is an Empty that finishes at once")
    func ignoreOutput() {
        let ignored = Just(1).ignoreOutput()
        pin(ignored, as: Empty<Int, Never>.self)
        #expect(outcome(of: ignored) == finished())
    }

    @Test("the selecting forms publish the output, or nothing, as an Optional publisher")
    func selections() {
        let firstWhere = Just(3).first { $0 > 2 }
        pin(firstWhere, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: firstWhere) == finished(3))
        #expect(outcome(of: Just(3).first { $0 > 3 }) == finished())
        let lastWhere = Just(3).last { $0 > 3 }
        pin(lastWhere, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: lastWhere) == finished())
        let dropped = Just(3).dropFirst()
        pin(dropped, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: dropped) == finished())
        #expect(outcome(of: Just(3).dropFirst(0)) == finished(3))
        let droppedWhile = Just(3).drop { $0 < 3 }
        pin(droppedWhile, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: droppedWhile) == finished(3))
        #expect(outcome(of: Just(3).drop { $0 == 3 }) == finished())
        let prefixed = Just(3).prefix(1)
        pin(prefixed, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: prefixed) == finished(3))
        #expect(outcome(of: Just(3).prefix(0)) == finished())
        let prefixWhile = Just(3).prefix { $0 < 3 }
        pin(prefixWhile, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: prefixWhile) == finished())
    }

    @Test("output(at:) publishes the output only at position 0; output(in:) only for a range starting at 0, an empty one too, as Combine's does")
    func positions() {
        let atZero = Just(8).output(at: 0)
        pin(atZero, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: atZero) == finished(8))
        #expect(outcome(of: Just(8).output(at: 1)) == finished())
        let inRange = Just(8).output(in: 0..<2)
        pin(inRange, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: inRange) == finished(8))
        #expect(outcome(of: Just(8).output(in: ...0)) == finished(8))
        #expect(outcome(of: Just(8).output(in: 1...)) == finished())
        #expect(outcome(of: Just(8).output(in: 0..<0)) == finished(8))
        #expect(outcome(of: Just(8).output(in: -1..<2)) == finished(), "a negative lower bound does not trap")
    }

    @Test("prepend and append build one sequence publisher now")
    func concatenation() {
        let prepended = Just(3).prepend(1, 2)
        pin(prepended, as: Publishers.Sequence<[Int], Never>.self)
        #expect(prepended.sequence == [1, 2, 3])
        let front = LoggedCollection([1, 2])
        #expect(Just(3).prepend(front).sequence == [1, 2, 3])
        #expect(front.log == ["init(_:)", "underestimatedCount", "underestimatedCount", "makeIterator"],
                "room reserved, then the elements appended, as Combine's prepend does")
        #expect(outcome(of: prepended) == finished(1, 2, 3))
        let prependedSequence = Just(3).prepend(1...2)
        pin(prependedSequence, as: Publishers.Sequence<[Int], Never>.self)
        #expect(prependedSequence.sequence == [1, 2, 3])
        let appended = Just(1).append(2, 3)
        pin(appended, as: Publishers.Sequence<[Int], Never>.self)
        #expect(appended.sequence == [1, 2, 3])
        let appendedSequence = Just(1).append(2...3)
        pin(appendedSequence, as: Publishers.Sequence<[Int], Never>.self)
        #expect(outcome(of: appendedSequence) == finished(1, 2, 3))
    }

    @Test("a negative count or index traps, naming the call", .exitTest)
    func negativeArgumentsTrap() async {
        let index = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).output(at: -1)
        }
        let indexMessage = String(decoding: index?.standardErrorContent ?? [], as: UTF8.self)
        #expect(indexMessage.contains("output(at:)"))
        let count = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.dropFirst(-1)
        }
        let countMessage = String(decoding: count?.standardErrorContent ?? [], as: UTF8.self)
        #expect(countMessage.contains("dropFirst(_:)"))
        let length = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = [1].publisher.prefix(-1)
        }
        let lengthMessage = String(decoding: length?.standardErrorContent ?? [], as: UTF8.self)
        #expect(lengthMessage.contains("prefix(_:)"))
    }
}
