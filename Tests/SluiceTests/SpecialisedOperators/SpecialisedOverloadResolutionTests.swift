import Sluice
import SluiceTesting
import Testing

// With the generic operators on `Publisher` and the specialised members both in scope, these
// expressions must compile without an ambiguity and pick the specialised member, as they do
// with Combine. Each result is bound without a type annotation first, so nothing but overload
// resolution decides its type; `pin` then fails the build and `hasType` the test if the
// compiler chose otherwise.

@Suite("Overload resolution: the specialised members win, without ambiguity, in chains and with inferred closures")
struct SpecialisedOverloadResolutionTests {
    @Test("Just: single-expression, multi-statement and shorthand closures, and function references")
    func justClosures() {
        let single = Just(1).map { $0 + 1 }
        pin(single, as: Just<Int>.self)
        #expect(hasType(single, Just<Int>.self))
        let multi = Just(1).map { value in
            let doubled = value * 2
            return "\(doubled)"
        }
        pin(multi, as: Just<String>.self)
        #expect(hasType(multi, Just<String>.self))
        let reference = Just("12").compactMap(Int.init)
        pin(reference, as: Optional<Int>.Publisher.self)
        #expect(hasType(reference, Optional<Int>.Publisher.self))
        let stored: (Int) -> Double = { Double($0) / 2 }
        let storedClosure = Just(3).map(stored)
        pin(storedClosure, as: Just<Double>.self)
        #expect(outcome(of: storedClosure) == finished(1.5))
        let operatorFunction = Just(3).reduce(4, +)
        pin(operatorFunction, as: Result<Int, Never>.Publisher.self)
        #expect(hasType(operatorFunction, Result<Int, Never>.Publisher.self))
    }

    @Test("Just: a chain of specialised members stays specialised, type by type")
    func justChain() {
        let chain = Just(4)
            .map { $0 * 3 }
            .filter { $0 > 10 }
            .map { "\($0)" }
            .replaceEmpty(with: "none")
            .setFailureType(to: Thrown.self)
            .tryMap { Int($0) ?? 0 }
            .replaceError(with: -1)
        pin(chain, as: Result<Int, Never>.Publisher.self)
        #expect(hasType(chain, Result<Int, Never>.Publisher.self))
        #expect(outcome(of: chain) == finished(12))
    }

    @Test("a key path keeps the generic map(_:), whose KeyPath parameter matches without a conversion")
    func keyPaths() {
        let counted = Just("ab").map(\.count)
        pin(counted, as: Publishers.MapKeyPath<Just<String>, Int>.self)
        #expect(outcome(of: counted) == finished(2))
        let closure = Just("ab").map { $0.count }
        pin(closure, as: Just<Int>.self)
        #expect(hasType(closure, Just<Int>.self))
    }

    @Test("a generic operator without a specialised form still applies, and a specialised one follows it")
    func mixedWithGenericOperators() {
        let mixed = Just(2).map { $0 + 1 }.handleEvents().map { $0 * 2 }
        pin(mixed, as: Publishers.Map<Publishers.HandleEvents<Just<Int>>, Int>.self)
        #expect(outcome(of: mixed) == finished(6))
        let erased = Just(2).eraseToAnyPublisher().map { $0 + 1 }
        pin(erased, as: Publishers.Map<AnyPublisher<Int, Never>, Int>.self)
        #expect(outcome(of: erased) == finished(3))
    }

    @Test("Optional and Result publishers: chains with inferred closure types")
    func optionalAndResultChains() {
        let optional = Optional("a").publisher.map { $0 + "b" }.filter { !$0.isEmpty }.count()
        pin(optional, as: Optional<Int>.Publisher.self)
        #expect(hasType(optional, Optional<Int>.Publisher.self))
        #expect(outcome(of: optional) == finished(1))
        let result = Result<Int, Thrown>.success(2).publisher
            .map { $0 * 5 }
            .tryMap { value -> String in
                guard value < 100 else { throw Thrown(code: value) }
                return String(value)
            }
            .collect()
        pin(result, as: Result<[String], any Error>.Publisher.self)
        #expect(hasType(result, Result<[String], any Error>.Publisher.self))
        #expect(outcome(of: result) == finished(["10"]))
    }

    @Test("(0..<3).publisher.map{…}.filter{…} and friends pick the Sequence members")
    func sequenceChains() {
        let chain = (0..<3).publisher.map { $0 * 2 }.filter { $0 > 0 }
        pin(chain, as: Publishers.Sequence<[Int], Never>.self)
        #expect(hasType(chain, Publishers.Sequence<[Int], Never>.self))
        #expect(outcome(of: chain) == finished(2, 4))
        let longer = (0..<10).publisher
            .compactMap { $0.isMultiple(of: 3) ? nil : $0 }
            .scan(0, +)
            .removeDuplicates()
            .dropFirst()
            .prefix(3)
        pin(longer, as: Publishers.Sequence<PrefixSequence<DropFirstSequence<[Int]>>, Never>.self)
        #expect(outcome(of: longer) == finished(3, 7, 12))
        let reduced = (1...4).publisher.map { $0 * $0 }.reduce(0, +)
        pin(reduced, as: Result<Int, Never>.Publisher.self)
        #expect(outcome(of: reduced) == finished(30))
        let counted = (1...4).publisher.filter { $0 > 1 }.count()
        pin(counted, as: Just<Int>.self)
        #expect(counted == Just(3))
        let sunk = (0..<3).publisher.map { $0 + 1 }.first()
        pin(sunk, as: Optional<Int>.Publisher.self)
        var received: [Int] = []
        _ = sunk.sink { received.append($0) }
        #expect(received == [1])
    }

    @Test("a sequence that is not a collection keeps the generic first(), count() and output(at:)")
    func nonCollectionSequences() {
        let lazy = AnySequence([1, 2, 3]).publisher
        let first = lazy.first()
        pin(first, as: Publishers.First<Publishers.Sequence<AnySequence<Int>, Never>>.self)
        #expect(outcome(of: first) == finished(1))
        let counted = lazy.count()
        pin(counted, as: Publishers.Count<Publishers.Sequence<AnySequence<Int>, Never>>.self)
        #expect(outcome(of: counted) == finished(3))
        let firstWhere = lazy.first { $0 > 1 }
        pin(firstWhere, as: Optional<Int>.Publisher.self)
        #expect(outcome(of: firstWhere) == finished(2))
    }

    @Test("inside a generic function only the generic operators apply")
    func genericContext() {
        func doubled<P: Publisher<Int, Never>>(_ publisher: P) -> Publishers.Map<P, Int> {
            publisher.map { $0 * 2 }
        }
        #expect(outcome(of: doubled(Just(2))) == finished(4))
        #expect(outcome(of: doubled([1, 2].publisher)) == finished(2, 4))
    }
}
