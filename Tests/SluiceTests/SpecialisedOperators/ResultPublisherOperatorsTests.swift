import Sluice
import SluiceTesting
import Testing

// Each test binds the operator's result without a type annotation, then pins the inferred
// type and checks what it delivers, for a success and for a failure (which passes through
// without the closure being called).

@Suite("Result.Publisher's specialised operators: Combine's result types, computed when called")
struct ResultPublisherOperatorsTests {
    let success = Result<Int, Thrown>.success(4).publisher
    let failure = Result<Int, Thrown>.failure(Thrown(code: 9)).publisher

    /// A closure for the failure cases: it must not run.
    func unreachable<T>(_ value: Int) -> T {
        Issue.record("a closure ran for a failure")
        fatalError("unreachable")
    }

    @Test("map, tryMap and mapError transform at call time; the failure passes through")
    func transforms() {
        var calls = 0
        let mapped = success.map { value -> String in
            calls += 1
            return "\(value)"
        }
        pin(mapped, as: Result<String, Thrown>.Publisher.self)
        #expect(calls == 1)
        #expect(outcome(of: mapped) == finished("4"))
        #expect(outcome(of: failure.map { _ in calls += 1 }.map { 0 }) == failed(Thrown(code: 9)))
        #expect(calls == 1)

        let tried = success.tryMap { $0 + 1 }
        pin(tried, as: Result<Int, any Error>.Publisher.self)
        #expect(outcome(of: tried) == finished(5))
        #expect(outcome(of: success.tryMap { _ -> Int in throw Thrown(code: 1) }) == failed(Thrown(code: 1)))
        #expect(outcome(of: failure.tryMap { _ -> Int in throw Thrown(code: 1) }) == failed(Thrown(code: 9)))

        let remapped = failure.mapError { Thrown(code: $0.code + 1) }
        pin(remapped, as: Result<Int, Thrown>.Publisher.self)
        #expect(outcome(of: remapped) == failed(Thrown(code: 10)))
        #expect(outcome(of: success.mapError { _ in Thrown() }) == finished(4))
    }

    @Test("scan, reduce and their try forms: one result, the error thrown, or the failure passed on")
    func accumulators() {
        let scanned = success.scan(10, +)
        pin(scanned, as: Result<Int, Thrown>.Publisher.self)
        #expect(outcome(of: scanned) == finished(14))
        let reduced = success.reduce(10, *)
        pin(reduced, as: Result<Int, Thrown>.Publisher.self)
        #expect(outcome(of: reduced) == finished(40))
        #expect(outcome(of: failure.reduce(10, *)) == failed(Thrown(code: 9)))

        let tryScanned = success.tryScan(10, +)
        pin(tryScanned, as: Result<Int, any Error>.Publisher.self)
        #expect(outcome(of: tryScanned) == finished(14))
        #expect(outcome(of: success.tryScan(0) { _, _ -> Int in throw Thrown(code: 2) }) == failed(Thrown(code: 2)))
        let tryReduced = success.tryReduce(10, *)
        pin(tryReduced, as: Result<Int, any Error>.Publisher.self)
        #expect(outcome(of: tryReduced) == finished(40))
        #expect(outcome(of: success.tryReduce(0) { _, _ -> Int in throw Thrown(code: 3) }) == failed(Thrown(code: 3)))
        #expect(outcome(of: failure.tryReduce(0) { _, _ -> Int in throw Thrown(code: 3) }) == failed(Thrown(code: 9)))
    }

    @Test("removeDuplicates, replaceEmpty, retry, first, last, min and max return the publisher itself")
    func identities() {
        for publisher in [success, failure] {
            let results: [Result<Int, Thrown>.Publisher] = [
                publisher.removeDuplicates(), publisher.removeDuplicates(by: ==), publisher.replaceEmpty(with: 0),
                publisher.retry(2), publisher.first(), publisher.last(), publisher.min(), publisher.max(),
                publisher.min(by: <), publisher.max(by: <),
            ]
            #expect(results.allSatisfy { $0 == publisher })
        }
        let largest = success.max(by: <)
        pin(largest, as: Result<Int, Thrown>.Publisher.self)
    }

    @Test("tryRemoveDuplicates, tryMin and tryMax call the closure once, so a throw fails the result")
    func tryComparisons() {
        var calls = 0
        let deduplicated = success.tryRemoveDuplicates { _, _ in calls += 1; return false }
        pin(deduplicated, as: Result<Int, any Error>.Publisher.self)
        let smallest = success.tryMin { _, _ in calls += 1; return false }
        pin(smallest, as: Result<Int, any Error>.Publisher.self)
        let largest = success.tryMax { _, _ in calls += 1; return false }
        pin(largest, as: Result<Int, any Error>.Publisher.self)
        #expect(calls == 3)
        for publisher in [deduplicated, smallest, largest] {
            #expect(outcome(of: publisher) == finished(4))
        }
        let throwing: (Int, Int) throws -> Bool = { _, _ in throw Thrown(code: 4) }
        #expect(outcome(of: success.tryRemoveDuplicates(by: throwing)) == failed(Thrown(code: 4)))
        #expect(outcome(of: success.tryMin(by: throwing)) == failed(Thrown(code: 4)))
        #expect(outcome(of: success.tryMax(by: throwing)) == failed(Thrown(code: 4)))
        #expect(outcome(of: failure.tryMax(by: throwing)) == failed(Thrown(code: 9)))
    }

    @Test("replaceError publishes the success or the replacement, and never fails")
    func replaceError() {
        let replaced = failure.replaceError(with: 0)
        pin(replaced, as: Result<Int, Never>.Publisher.self)
        #expect(outcome(of: replaced) == finished(0))
        #expect(outcome(of: success.replaceError(with: 0)) == finished(4))
    }

    @Test("setFailureType on a Result that cannot fail gives it a failure type")
    func setFailureType() {
        let retyped = Result<Int, Never>.success(1).publisher.setFailureType(to: Thrown.self)
        pin(retyped, as: Result<Int, Thrown>.Publisher.self)
        #expect(outcome(of: retyped) == finished(1))
    }

    @Test("collect, count, contains and allSatisfy publish their answer; a failure passes through")
    func reductions() {
        let collected = success.collect()
        pin(collected, as: Result<[Int], Thrown>.Publisher.self)
        #expect(outcome(of: collected) == finished([4]))
        #expect(outcome(of: failure.collect()) == failed(Thrown(code: 9)))
        let counted = success.count()
        pin(counted, as: Result<Int, Thrown>.Publisher.self)
        #expect(outcome(of: counted) == finished(1))
        #expect(outcome(of: failure.count()) == failed(Thrown(code: 9)))
        let containsFour = success.contains(4)
        pin(containsFour, as: Result<Bool, Thrown>.Publisher.self)
        #expect(outcome(of: containsFour) == finished(true))
        let containsWhere = success.contains { $0 > 4 }
        pin(containsWhere, as: Result<Bool, Thrown>.Publisher.self)
        #expect(outcome(of: containsWhere) == finished(false))
        let all = success.allSatisfy { $0 > 0 }
        pin(all, as: Result<Bool, Thrown>.Publisher.self)
        #expect(outcome(of: all) == finished(true))
        #expect(outcome(of: failure.allSatisfy(unreachable)) == failed(Thrown(code: 9)))
    }

    @Test("tryContains and tryAllSatisfy: the answer, the error thrown, or the failure passed on")
    func tryReductions() {
        let contained = success.tryContains { $0 == 4 }
        pin(contained, as: Result<Bool, any Error>.Publisher.self)
        #expect(outcome(of: contained) == finished(true))
        #expect(outcome(of: success.tryContains { _ in throw Thrown(code: 5) }) == failed(Thrown(code: 5)))
        #expect(outcome(of: failure.tryContains(where: unreachable)) == failed(Thrown(code: 9)))
        let all = success.tryAllSatisfy { $0 == 5 }
        pin(all, as: Result<Bool, any Error>.Publisher.self)
        #expect(outcome(of: all) == finished(false))
        #expect(outcome(of: success.tryAllSatisfy { _ in throw Thrown(code: 6) }) == failed(Thrown(code: 6)))
    }

    @Test("ignoreOutput is an Empty that finishes at once, dropping a failure as Combine's does")
    func ignoreOutput() {
        let ignored = failure.ignoreOutput()
        pin(ignored, as: Empty<Int, Thrown>.self)
        #expect(outcome(of: ignored) == finished())
    }
}
