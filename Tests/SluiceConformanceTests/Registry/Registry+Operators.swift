import Sluice
import SluiceTesting

/// The operators in the registry. Each is declared once, by a transform that leaves the
/// registry's values as they are (`0..<elements`, so every rule's expectations hold), and is
/// applied to a fixed set of upstreams: synchronous, hot and sent to from the test, asynchronous,
/// failing, never-ending. Every rule then checks each operator over each of them.
extension Registry {
    /// The upstreams every operator is checked over.
    static let operatorUpstreams = [
        "Publishers.Sequence", "PassthroughSubject", "Producer", "Record(failure)", "PassthroughSubject(never-ending)",
    ]

    /// The operators the million-element rule checks: the pass-through step, a dropping step,
    /// one that may end the stream, and the observing wrapper.
    static let scaledOperators: Set<String> = ["map", "filter", "prefix(while:)", "handleEvents"]

    /// Operators checked only over the upstreams that do not fail: over a failing one they
    /// change the values (`retry` replays them, `replaceError` adds its element).
    static let nonFailingUpstreamsOnly: Set<String> = ["retry(1)", "replaceError(with:)"]

    /// Operators whose own subscription traps on `request(.none)`, as Combine's do, whatever
    /// the upstream would have done with it.
    static let trappingZeroDemand: Set<String> = [
        "replaceError(with:)", "replaceEmpty(with:)", "catch", "tryCatch", "collect(1)",
    ]

    typealias Transform = @Sendable (AnyPublisher<Int, TestFailure>) -> any Publisher<Int, TestFailure>

    /// Name and transform of each operator; values pass through unchanged.
    static let operatorTransforms: [(name: String, transform: Transform)] = [
        ("map", { $0.map { $0 } }),
        ("tryMap", { $0.tryMap { $0 }.mapError { $0 as! TestFailure } }),
        ("filter", { $0.filter { $0 >= 0 } }),
        ("tryFilter", { $0.tryFilter { $0 >= 0 }.mapError { $0 as! TestFailure } }),
        ("compactMap", { $0.compactMap { $0 } }),
        ("tryCompactMap", { $0.tryCompactMap { $0 }.mapError { $0 as! TestFailure } }),
        ("mapError", { $0.mapError { $0 } }),
        ("scan", { $0.scan(-1) { _, value in value } }),
        ("tryScan", { $0.tryScan(-1) { _, value in value }.mapError { $0 as! TestFailure } }),
        ("removeDuplicates", { $0.removeDuplicates() }),
        ("tryRemoveDuplicates", { $0.tryRemoveDuplicates(by: ==).mapError { $0 as! TestFailure } }),
        ("dropFirst(0)", { $0.dropFirst(0) }),
        ("drop(while:)", { $0.drop { $0 < 0 } }),
        ("prefix(while:)", { $0.prefix { $0 >= 0 } }),
        ("output(in: 0...)", { $0.output(in: 0...) }),
        ("handleEvents", { $0.handleEvents(receiveOutput: { _ in }) }),
        ("print", { $0.print(to: DiscardingStream()) }),
        ("replaceError(with:)", { $0.replaceError(with: -1).setFailureType(to: TestFailure.self) }),
        ("replaceEmpty(with:)", { $0.replaceEmpty(with: -1) }),
        // Over a failing upstream, the handler's `Fail` takes over and fails the same way.
        ("catch", { $0.catch { Fail(error: $0) } }),
        ("tryCatch", { $0.tryCatch { Fail(error: $0) }.mapError { $0 as! TestFailure } }),
        ("retry(1)", { $0.retry(1) }),
        ("append()", { $0.append() }),
        ("prepend()", { $0.prepend() }),
        ("collect(1)", { $0.collect(1).map { $0[0] } }),
    ]

    static let operators: [Entry] = operatorTransforms.flatMap { (name: String, transform: @escaping Transform) -> [Entry] in
        operatorUpstreams.compactMap { (upstreamName: String) -> Entry? in
            let upstream = (core + subjects + bridge).first { $0.name == upstreamName }!
            if nonFailingUpstreamsOnly.contains(name) && upstream.ending == .failure { return nil }
            return operatorEntry(name, transform, over: upstream)
        }
    }

    /// `name` applied to `upstream`: the upstream's shape, with the operator in between.
    static func operatorEntry(_ name: String, _ transform: @escaping Transform, over upstream: Entry) -> Entry {
        // The million-element rule (3.3) is about recursion inside `request(_:)`, which these
        // operators leave to their upstream or wrap once: checked for a few, over the sequence,
        // so that it does not dominate the sanitizer runs.
        var scaled: (@Sendable (Int) -> Source)?
        if let upstreamScaled = upstream.scaled, upstream.name == "Publishers.Sequence", scaledOperators.contains(name) {
            scaled = { count in upstreamScaled(count).through(transform) }
        }
        let make: @Sendable () -> Source = { upstream.make().through(transform) }
        return Entry(
            "\(name) over \(upstream.name)", elements: upstream.elements, ending: upstream.ending,
            delivery: upstream.delivery, isCold: upstream.isCold, hasEmptySubscription: upstream.hasEmptySubscription,
            acceptsZeroDemand: upstream.acceptsZeroDemand && !trappingZeroDemand.contains(name),
            completesWithItsValue: upstream.completesWithItsValue,
            scaled: scaled, make: make)
    }
}

extension Source {
    /// The same source (and pump) with `transform` applied to its publisher.
    func through(_ transform: @escaping Registry.Transform) -> Source {
        Source(transform(AnyPublisher(publisher)), pump: pump, subject: subject)
    }
}

/// A text stream that keeps nothing, for `print` in the registry.
struct DiscardingStream: TextOutputStream {
    mutating func write(_ string: String) {}
}
