import Sluice
import SluiceTesting
import Testing

// Each test binds the operator's result without a type annotation, then pins the inferred
// type and checks what it delivers, for a non-empty and an empty sequence.

@Suite("Publishers.Sequence's specialised operators: Combine's result types, computed when called")
struct SequenceOperatorsTests {
    let numbers = [3, 1, 4, 1, 5].publisher
    let empty = [Int]().publisher

    @Test("map, compactMap, filter, scan and replaceNil build their array once, at call time")
    func transforms() {
        var calls = 0
        let mapped = numbers.map { value -> String in
            calls += 1
            return "\(value)"
        }
        pin(mapped, as: Publishers.Sequence<[String], Never>.self)
        #expect(calls == 5)
        #expect(mapped.sequence == ["3", "1", "4", "1", "5"])
        #expect(outcome(of: mapped) == finished("3", "1", "4", "1", "5"))
        #expect(outcome(of: mapped).values.count == 5)
        #expect(calls == 5)

        let compacted = ["1", "x", "3"].publisher.compactMap(Int.init)
        pin(compacted, as: Publishers.Sequence<[Int], Never>.self)
        #expect(compacted.sequence == [1, 3])
        let kept = numbers.filter { $0 > 2 }
        pin(kept, as: Publishers.Sequence<[Int], Never>.self)
        #expect(outcome(of: kept) == finished(3, 4, 5))
        #expect(outcome(of: empty.filter { _ in true }) == finished())

        var scans = 0
        let scanned = numbers.scan(0) { total, value in
            scans += 1
            return total + value
        }
        pin(scanned, as: Publishers.Sequence<[Int], Never>.self)
        #expect(scans == 5)
        #expect(outcome(of: scanned) == finished(3, 4, 8, 9, 14))
        #expect(outcome(of: scanned) == finished(3, 4, 8, 9, 14))
        #expect(outcome(of: empty.scan(0, +)) == finished())

        let replaced = [1, nil, 3].publisher.replaceNil(with: 0)
        pin(replaced, as: Publishers.Sequence<[Int?], Never>.self)
        #expect(replaced.sequence == [1, 0, 3])
    }

    @Test("removeDuplicates drops consecutive repeats only; setFailureType keeps the sequence")
    func removeDuplicatesAndFailureType() {
        let deduplicated = [1, 1, 2, 2, 1, 3, 3].publisher.removeDuplicates()
        pin(deduplicated, as: Publishers.Sequence<[Int], Never>.self)
        #expect(deduplicated.sequence == [1, 2, 1, 3])
        #expect(empty.removeDuplicates().sequence == [])
        let retyped = (1...3).publisher.setFailureType(to: Thrown.self)
        pin(retyped, as: Publishers.Sequence<ClosedRange<Int>, Thrown>.self)
        #expect(retyped.sequence == 1...3)
        #expect(outcome(of: retyped) == finished(1, 2, 3))
    }

    @Test("dropFirst, drop(while:) and prefix wrap the standard library's views; prefix(while:) builds an array")
    func selections() {
        let dropped = numbers.dropFirst(2)
        pin(dropped, as: Publishers.Sequence<DropFirstSequence<[Int]>, Never>.self)
        #expect(outcome(of: dropped) == finished(4, 1, 5))
        #expect(outcome(of: numbers.dropFirst()) == finished(1, 4, 1, 5))
        let droppedWhile = numbers.drop { $0 > 2 }
        pin(droppedWhile, as: Publishers.Sequence<DropWhileSequence<[Int]>, Never>.self)
        #expect(outcome(of: droppedWhile) == finished(1, 4, 1, 5))
        let prefixed = (1...).publisher.prefix(3)
        pin(prefixed, as: Publishers.Sequence<PrefixSequence<PartialRangeFrom<Int>>, Never>.self)
        #expect(outcome(of: prefixed) == finished(1, 2, 3))
        let prefixWhile = numbers.prefix { $0 > 2 }
        pin(prefixWhile, as: Publishers.Sequence<[Int], Never>.self)
        #expect(outcome(of: prefixWhile) == finished(3))
        #expect(outcome(of: empty.prefix { _ in true }) == finished())
    }

    @Test("first, last, min and max (Failure == Never) publish an element, or nothing when empty")
    func optionalSelections() {
        let first = numbers.first()
        pin(first, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: first) == finished(3))
        #expect(outcome(of: empty.first()) == finished())
        let firstWhere = numbers.first { $0 < 3 }
        pin(firstWhere, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: firstWhere) == finished(1))
        #expect(outcome(of: numbers.first { $0 > 5 }) == finished())
        let last = numbers.last()
        pin(last, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: last) == finished(5))
        #expect(outcome(of: empty.last()) == finished())
        let lastWhere = numbers.last { $0 < 4 }
        pin(lastWhere, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: lastWhere) == finished(1))
        let smallest = numbers.min()
        pin(smallest, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: smallest) == finished(1))
        #expect(outcome(of: empty.min()) == finished())
        let largest = numbers.max()
        pin(largest, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: largest) == finished(5))
        let shortest = ["ccc", "a", "bb", "b"].publisher.min { $0.count < $1.count }
        pin(shortest, as: Optional<String>.Publisher.self)
        #expect(outcome(of: shortest) == finished("a"))
        let longest = ["a", "ccc", "bb", "ddd"].publisher.max { $0.count < $1.count }
        pin(longest, as: Optional<String>.Publisher.self)
        #expect(outcome(of: longest) == finished("ccc"))   // the first of equals, as the generic max(by:)
    }

    @Test("output(at:) and output(in:) select by index; an index outside the collection gives nothing")
    func positions() {
        let atTwo = numbers.output(at: 2)
        pin(atTwo, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: atTwo) == finished(4))
        #expect(outcome(of: numbers.output(at: 5)) == finished())
        #expect(outcome(of: numbers.output(at: -1)) == finished())
        let letters = Set(["a"]).publisher
        let onlyLetter = letters.output(at: letters.sequence.startIndex)
        pin(onlyLetter, as: Optional<String>.Publisher.self)
        #expect(outcome(of: onlyLetter) == finished("a"))
        let within = numbers.output(in: 1..<3)
        pin(within, as: Publishers.Sequence<[Int], Never>.self)
        #expect(outcome(of: within) == finished(1, 4))
        let failing = numbers.setFailureType(to: Thrown.self).output(in: 0..<1)
        pin(failing, as: Publishers.Sequence<[Int], Thrown>.self)
        #expect(outcome(of: failing) == finished(3))
    }

    @Test("output(at:) asks the collection's indices, then its subscript, as Combine's does, and nothing else")
    func outputAtAsksIndices() {
        let log = Locked<[String]>([])
        let collection = LoggingCollection(log: log)
        #expect(outcome(of: collection.publisher.output(at: 1)) == finished(20))
        #expect(log.withLock { $0 } == ["indices", "subscript"])
        log.withLock { $0 = [] }
        #expect(outcome(of: collection.publisher.output(at: 7)) == finished())
        #expect(log.withLock { $0 } == ["indices"])
    }

    /// Three elements; logs which of its requirements a call uses.
    private struct LoggingCollection: RandomAccessCollection {
        let log: Locked<[String]>
        var startIndex: Int { log.withLock { $0.append("startIndex") }; return 0 }
        var endIndex: Int { log.withLock { $0.append("endIndex") }; return 3 }
        var indices: Range<Int> { log.withLock { $0.append("indices") }; return 0..<3 }
        subscript(position: Int) -> Int { log.withLock { $0.append("subscript") }; return (position + 1) * 10 }
    }

    @Test(
        "output(in:) with a range reaching outside an array traps, as slicing it does (and Combine's does)",
        .exitTest
    )
    func outputInRangeOutsideTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = [3, 1, 4, 1, 5].publisher.output(in: 3..<9)
        }
    }

    @Test("count is a Just for a random-access collection that cannot fail, else a Result publisher")
    func count() {
        let counted = numbers.count()
        pin(counted, as: Just<Int>.self)
        #expect(counted == Just(5))
        let failing = numbers.setFailureType(to: Thrown.self).count()
        pin(failing, as: Result<Int, Thrown>.Publisher.self)
        #expect(outcome(of: failing) == finished(5))
        let unordered = Set([1, 2]).publisher.count()
        pin(unordered, as: Result<Int, Never>.Publisher.self)
        #expect(outcome(of: unordered) == finished(2))
        #expect(empty.count() == Just(0))
    }

    @Test("reduce, collect, contains and allSatisfy publish one Result, also for an empty sequence")
    func reductions() {
        let reduced = numbers.reduce(0, +)
        pin(reduced, as: Result<Int, Never>.Publisher.self)
        #expect(outcome(of: reduced) == finished(14))
        #expect(outcome(of: empty.reduce(7, +)) == finished(7))
        let collected = numbers.collect()
        pin(collected, as: Result<[Int], Never>.Publisher.self)
        #expect(outcome(of: collected) == finished([3, 1, 4, 1, 5]))
        #expect(outcome(of: empty.collect()) == finished([]))
        let containsFour = numbers.contains(4)
        pin(containsFour, as: Result<Bool, Never>.Publisher.self)
        #expect(outcome(of: containsFour) == finished(true))
        #expect(outcome(of: empty.contains(4)) == finished(false))
        var tested = 0
        let containsWhere = numbers.contains { value in
            tested += 1
            return value == 4
        }
        pin(containsWhere, as: Result<Bool, Never>.Publisher.self)
        #expect(tested == 3)
        #expect(outcome(of: containsWhere) == finished(true))
        let all = numbers.allSatisfy { $0 > 0 }
        pin(all, as: Result<Bool, Never>.Publisher.self)
        #expect(outcome(of: all) == finished(true))
        #expect(outcome(of: empty.allSatisfy { _ in false }) == finished(true))
        let ignored = numbers.ignoreOutput()
        pin(ignored, as: Empty<Int, Never>.self)
        #expect(outcome(of: ignored) == finished())
    }

    @Test("the try forms stop at the first throw and fail with it")
    func tryReductions() {
        var tested = 0
        let contained = numbers.tryContains { value in
            tested += 1
            if value == 4 { throw Thrown(code: value) }
            return false
        }
        pin(contained, as: Result<Bool, any Error>.Publisher.self)
        #expect(outcome(of: contained) == failed(Thrown(code: 4)))
        #expect(tested == 3)
        let throwing: (Int) throws -> Bool = { value in
            if value == 4 { throw Thrown(code: value) }
            return true
        }
        #expect(outcome(of: numbers.tryContains { $0 == 1 }) == finished(true))
        let all = numbers.tryAllSatisfy(throwing)
        pin(all, as: Result<Bool, any Error>.Publisher.self)
        #expect(outcome(of: all) == failed(Thrown(code: 4)))
        #expect(outcome(of: numbers.tryAllSatisfy { $0 < 5 }) == finished(false))
        let reduced = numbers.tryReduce(0) { total, value in
            if value == 5 { throw Thrown(code: total) }
            return total + value
        }
        pin(reduced, as: Result<Int, any Error>.Publisher.self)
        #expect(outcome(of: reduced) == failed(Thrown(code: 9)))
        #expect(outcome(of: numbers.tryReduce(0, +)) == finished(14))
    }

    @Test("prepend and append join the elements into one collection of the same type")
    func concatenation() {
        let prepended = numbers.prepend(0, 0)
        pin(prepended, as: Publishers.Sequence<[Int], Never>.self)
        #expect(prepended.sequence == [0, 0, 3, 1, 4, 1, 5])
        let prependedSequence = numbers.prepend(8...9)
        pin(prependedSequence, as: Publishers.Sequence<[Int], Never>.self)
        #expect(prependedSequence.sequence == [8, 9, 3, 1, 4, 1, 5])
        let prependedPublisher = numbers.prepend([7].publisher)
        pin(prependedPublisher, as: Publishers.Sequence<[Int], Never>.self)
        #expect(prependedPublisher.sequence == [7, 3, 1, 4, 1, 5])
        let appended = numbers.append(6)
        pin(appended, as: Publishers.Sequence<[Int], Never>.self)
        #expect(appended.sequence == [3, 1, 4, 1, 5, 6])
        let appendedSequence = "ab".publisher.append("cd")
        pin(appendedSequence, as: Publishers.Sequence<String, Never>.self)
        #expect(appendedSequence.sequence == "abcd")
        let appendedPublisher = numbers.append([9].publisher)
        pin(appendedPublisher, as: Publishers.Sequence<[Int], Never>.self)
        #expect(outcome(of: appendedPublisher) == finished(3, 1, 4, 1, 5, 9))
    }

    @Test("prepend builds its collection as Combine's does: an empty one, room reserved, then each part appended")
    func prependCalls() {
        let base = LoggedCollection([3, 4])
        let joined = Publishers.Sequence<LoggedCollection, Never>(sequence: base).prepend(1, 2).sequence
        #expect(joined.storage == [1, 2, 3, 4])
        #expect(joined.log == ["init()", "reserveCapacity", "append(contentsOf:)", "append(contentsOf:)"])
        #expect(base.log == ["init(_:)", "count", "underestimatedCount", "makeIterator"])

        let front = LoggedCollection([1, 2])
        let ontoFront = Publishers.Sequence<LoggedCollection, Never>(sequence: LoggedCollection([3]))
            .prepend(Publishers.Sequence(sequence: front)).sequence
        #expect(ontoFront === front, "appended to the prepended publisher's collection, as in Combine")
        #expect(front.storage == [1, 2, 3])
    }
}

/// A collection with reference semantics that logs the calls `prepend` makes on it.
final class LoggedCollection: RangeReplaceableCollection {
    var storage: [Int]
    var log: [String]
    required init() {
        storage = []
        log = ["init()"]
    }
    init(_ elements: [Int]) {
        storage = elements
        log = ["init(_:)"]
    }
    var startIndex: Int { storage.startIndex }
    var endIndex: Int { storage.endIndex }
    subscript(position: Int) -> Int { storage[position] }
    func index(after index: Int) -> Int { index + 1 }
    var count: Int {
        log.append("count")
        return storage.count
    }
    var underestimatedCount: Int {
        log.append("underestimatedCount")
        return storage.count
    }
    func makeIterator() -> IndexingIterator<[Int]> {
        log.append("makeIterator")
        return storage.makeIterator()
    }
    func reserveCapacity(_ capacity: Int) { log.append("reserveCapacity") }
    func append<S: Sequence>(contentsOf elements: S) where S.Element == Int {
        log.append("append(contentsOf:)")
        storage.append(contentsOf: elements)
    }
    func replaceSubrange<C: Collection>(_ range: Range<Int>, with elements: C) where C.Element == Int {
        storage.replaceSubrange(range, with: elements)
    }
}
