import Sluice
import SluiceTesting
import Testing

// Each test binds the operator's result without a type annotation, then pins the inferred
// type and checks what it delivers, with a value and with `nil`.

@Suite("Optional.Publisher's specialised operators: Combine's result types, computed when called")
struct OptionalPublisherOperatorsTests {
    let some = Optional(4).publisher
    let none = Optional<Int>.none.publisher

    @Test("map, compactMap and filter apply their closure at call time, and never for nil")
    func transforms() {
        var calls = 0
        let mapped = some.map { value -> String in
            calls += 1
            return "\(value)"
        }
        pin(mapped, as: Optional<String>.Publisher.self)
        #expect(calls == 1)
        #expect(outcome(of: mapped) == finished("4"))
        let unmapped = none.map { value -> Int in
            calls += 1
            return value
        }
        #expect(outcome(of: unmapped) == finished())
        #expect(calls == 1)

        let compacted = some.compactMap { $0 > 3 ? "big" : nil }
        pin(compacted, as: Optional<String>.Publisher.self)
        #expect(outcome(of: compacted) == finished("big"))
        #expect(outcome(of: some.compactMap { $0 > 4 ? "big" : nil }) == finished())

        let kept = some.filter { $0 > 3 }
        pin(kept, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: kept) == finished(4))
        #expect(outcome(of: some.filter { $0 > 4 }) == finished())
        #expect(outcome(of: none.filter { _ in true }) == finished())
    }

    @Test("scan and reduce combine the output with the initial result; with nil they publish nothing")
    func accumulators() {
        let scanned = some.scan(10, +)
        pin(scanned, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: scanned) == finished(14))
        #expect(outcome(of: none.scan(10, +)) == finished())
        let reduced = some.reduce(10, *)
        pin(reduced, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: reduced) == finished(40))
        #expect(outcome(of: none.reduce(10, *)) == finished())
    }

    @Test("removeDuplicates, replaceError, retry, first, last, min and max return the publisher itself")
    func identities() {
        for publisher in [some, none] {
            let results: [Optional<Int>.Publisher] = [
                publisher.removeDuplicates(), publisher.removeDuplicates(by: ==), publisher.replaceError(with: 0),
                publisher.retry(1), publisher.first(), publisher.last(), publisher.min(), publisher.max(),
                publisher.min(by: <), publisher.max(by: <),
            ]
            #expect(results.allSatisfy { $0 == publisher })
        }
        let smallest = some.min()
        pin(smallest, as: Optional<Int>.Publisher.self)
    }

    @Test("replaceEmpty is a Just of the output, or of the replacement for nil")
    func replaceEmpty() {
        let replaced = none.replaceEmpty(with: 9)
        pin(replaced, as: Just<Int>.self)
        #expect(replaced == Just(9))
        #expect(some.replaceEmpty(with: 9) == Just(4))
    }

    @Test("collect sends an array, empty for nil; count, contains and allSatisfy send nothing for nil")
    func reductions() {
        let collected = some.collect()
        pin(collected, as: Optional<[Int]>.Publisher.self)
        #expect(outcome(of: collected) == finished([4]))
        #expect(outcome(of: none.collect()) == finished([]))
        let counted = some.count()
        pin(counted, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: counted) == finished(1))
        #expect(outcome(of: none.count()) == finished())
        let containsFour = some.contains(4)
        pin(containsFour, as: Optional<Bool>.Publisher.self)
        #expect(outcome(of: containsFour) == finished(true))
        #expect(outcome(of: some.contains(5)) == finished(false))
        #expect(outcome(of: none.contains(4)) == finished())
        let containsWhere = some.contains { $0 < 0 }
        pin(containsWhere, as: Optional<Bool>.Publisher.self)
        #expect(outcome(of: containsWhere) == finished(false))
        #expect(outcome(of: none.contains { _ in true }) == finished())
        let all = some.allSatisfy { $0 > 0 }
        pin(all, as: Optional<Bool>.Publisher.self)
        #expect(outcome(of: all) == finished(true))
        #expect(outcome(of: none.allSatisfy { _ in true }) == finished())
        let ignored = some.ignoreOutput()
        pin(ignored, as: Empty<Int, Never>.self)
        #expect(outcome(of: ignored) == finished())
    }

    @Test("the selecting forms keep the output, or not, as an Optional publisher")
    func selections() {
        let firstWhere = some.first { $0 == 4 }
        pin(firstWhere, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: firstWhere) == finished(4))
        #expect(outcome(of: none.first { _ in true }) == finished())
        let lastWhere = some.last { $0 != 4 }
        pin(lastWhere, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: lastWhere) == finished())
        let dropped = some.dropFirst()
        pin(dropped, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: dropped) == finished())
        #expect(outcome(of: some.dropFirst(0)) == finished(4))
        let droppedWhile = some.drop { $0 < 4 }
        pin(droppedWhile, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: droppedWhile) == finished(4))
        #expect(outcome(of: some.drop { $0 == 4 }) == finished())
        let prefixed = some.prefix(2)
        pin(prefixed, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: prefixed) == finished(4))
        #expect(outcome(of: some.prefix(0)) == finished())
        let prefixWhile = some.prefix { $0 == 4 }
        pin(prefixWhile, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: prefixWhile) == finished(4))
        #expect(outcome(of: none.prefix { _ in true }) == finished())
        let atZero = some.output(at: 0)
        pin(atZero, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: atZero) == finished(4))
        #expect(outcome(of: some.output(at: 1)) == finished())
        #expect(outcome(of: none.output(at: 0)) == finished())
        let inRange = some.output(in: 0...3)
        pin(inRange, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: inRange) == finished(4))
        #expect(outcome(of: some.output(in: 0..<0)) == finished())
        #expect(outcome(of: some.output(in: 1..<3)) == finished())
        #expect(outcome(of: some.output(in: 0..<(Int.max - 2))) == finished(4))
    }

    @Test(
        "Optional.Publisher.output(in:) traps on a range ending at Int.max - 1 or later, as Combine's does",
        .exitTest
    )
    func outputInRangeTrapsOnAnUpperBoundTooLarge() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(4).publisher.output(in: 0..<(Int.max - 1))
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("output(in:) takes a range that ends below Int.max - 1, got an upper bound of \(Int.max - 1)"))
        }
        await #expect(processExitsWith: .failure) {
            _ = Optional(4).publisher.output(in: 0...(Int.max - 2))
        }
    }
}
