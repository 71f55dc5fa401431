import Sluice
import SluiceTesting

/// The operators in the registry. Each is declared once, by a transform and what it makes of
/// its upstream's values and ending (most leave them as they are), and is applied to a fixed
/// set of upstreams: synchronous, hot and sent to from the test, asynchronous, failing,
/// never-ending. Every rule then checks each operator over each of them, against the values
/// and ending it declared.
extension Registry {
    /// The upstreams every operator is checked over.
    static let operatorUpstreams = [
        "Publishers.Sequence", "PassthroughSubject", "Producer", "Record(failure)", "PassthroughSubject(never-ending)",
    ]

    /// The operators the million-element rule checks: the pass-through step, a dropping step,
    /// one that may end the stream, and the observing wrapper.
    static let scaledOperators: Set<String> = ["map", "filter", "prefix(while:)", "handleEvents"]

    /// Operators whose values are declared only over the upstreams that do not fail: over a
    /// failing one they change the values (`retry` replays them, `replaceError` adds its
    /// element, and a merge's failure overtakes a value still waiting for demand, as Combine's
    /// does, and so do a flatMap's and a zip's, over values still waiting for demand or for
    /// their partner). Over a failing upstream they are in ``operatorsWithUndeclaredValues``.
    static let nonFailingUpstreamsOnly: Set<String> = [
        "retry(1)", "replaceError(with:)", "merge(with: Empty())", "MergeMany(upstream)",
        "flatMap { Just($0) }", "flatMap(maxPublishers: .max(1))", "flatMap { CollectionOfOne($0).publisher }",
        "zip(0..<100_000)",
    ]

    /// Operators whose own subscription traps on `request(.none)`, as Combine's do, whatever
    /// the upstream would have done with it.
    static let trappingZeroDemand: Set<String> = Set([
        "replaceError(with:)", "replaceEmpty(with:)", "catch", "tryCatch", "collect(1)",
        // The reducing and matching operators' own subscription.
        "first()", "first(where: == 1)", "last()", "reduce(0, +)", "tryReduce(0, +)", "count()",
        "collect().map(count)", "max()", "contains(2)", "allSatisfy(>= 0)", "collect(2).map(sum)",
        // The merge's subscription.
        "merge(with: Empty())", "MergeMany(upstream)",
        // Their own subscription.
        "dropFirst(0)", "dropFirst(2)", "drop(while:)", "prefix(while:)", "tryFilter", "tryCompactMap",
        "removeDuplicates", "tryRemoveDuplicates", "map { $0 / 2 }.removeDuplicates()",
        "zip(0..<100_000)", "combineLatest(Just)",
        "flatMap { Just($0) }", "flatMap(maxPublishers: .max(1))", "flatMap { CollectionOfOne($0).publisher }",
        "Just(upstream).switchToLatest()",
    ]).union(extTrappingZeroDemand)

    /// Whether `entry`'s values depend on which of its upstreams answers a request first, which
    /// requests racing from several threads leave open: `combineLatest(Just)` expects the
    /// `Just`'s value before the upstream's first, as one thread's request gives it (the `Just`
    /// is asked first); when another thread's request reaches the upstream meanwhile, the
    /// upstream's first values come with no partner and only the latest is kept, as Combine's
    /// combineLatest keeps it. Serial signals are still checked for it by the other rules.
    static func racingRequestsReorderUpstreams(_ entry: Entry) -> Bool {
        entry.name.hasPrefix("combineLatest(Just) over ")
    }

    /// Operators whose subscription passes `request(.none)` to a `Publishers.Sequence` of
    /// their own first (`prepend`'s prefix), which accepts it, whatever the upstream is.
    static let acceptingZeroDemand: Set<String> = Set(["prepend(100)"]).union(bufferingAcceptingZeroDemand)

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
        // A merge with a publisher that finishes at once, and a merge of one: the upstream's
        // values and ending, through the merge's demand and serialisation.
        ("merge(with: Empty())", { $0.merge(with: Empty<Int, TestFailure>()) }),
        ("MergeMany(upstream)", { Publishers.MergeMany($0) }),
        // A trigger that never fires, and one that fires at once: the upstream's values.
        ("prefix(untilOutputFrom: Empty())", { $0.prefix(untilOutputFrom: Empty<Int, Never>()) }),
        ("drop(untilOutputFrom: Just)", { $0.drop(untilOutputFrom: Just(0).setFailureType(to: TestFailure.self)) }),
        // The upstream zipped with more values than any entry sends, and combined with a value
        // that comes first: the upstream's values, through the join's demand and serialisation.
        ("zip(0..<100_000)", { $0.zip((0..<100_000).publisher.setFailureType(to: TestFailure.self)) { value, _ in value } }),
        ("combineLatest(Just)", { Just(0).setFailureType(to: TestFailure.self).combineLatest($0) { $1 } }),
        // Each value as an inner publisher of one value, as many at once as the upstream
        // sends, and one at a time: the upstream's values, through the inners' demand and
        // serialisation. `Just` inners take flatMap's scalar path while the downstream has
        // demand; a sequence of one always goes through an inner subscription.
        ("flatMap { Just($0) }", { $0.flatMap { Just($0).setFailureType(to: TestFailure.self) } }),
        ("flatMap(maxPublishers: .max(1))", { $0.flatMap(maxPublishers: .max(1)) { Just($0).setFailureType(to: TestFailure.self) } }),
        ("flatMap { CollectionOfOne($0).publisher }", {
            $0.flatMap { CollectionOfOne($0).publisher.setFailureType(to: TestFailure.self) }
        }),
        // The upstream as the one inner of a switch: its values and ending, through the
        // switch's demand carry-over and serialisation. (Each value as an inner of its own,
        // `map { Just($0) }.switchToLatest()`, loses values under limited demand, as Combine's
        // does: a Just waiting for demand is cancelled by the next.)
        ("Just(upstream).switchToLatest()", { Just($0).switchToLatest() }),
    ]

    /// Operators that share one subscription of their upstream among their subscribers,
    /// through a `PassthroughSubject`, as Combine's do: the upstream is asked for `.unlimited`
    /// at the first demand and a subscriber gets only what it has demand for. Over a cold
    /// upstream a subscriber with limited demand would lose the rest, by design, so they are
    /// checked over the hot upstreams (subjects), whose pump sends the next value only once
    /// the last one was delivered (see `Bodies.subject(_:count:ending:sharing:)`).
    static let sharingOperators: [(name: String, transform: Transform)] = [
        ("share()", { $0.share() }),
        ("multicast { PassthroughSubject() }.autoconnect()", { $0.multicast { PassthroughSubject() }.autoconnect() }),
    ]

    static let sharing: [Entry] = sharingOperators.flatMap { overPassthroughSubject($0.name, $0.transform) }

    /// `name` over a `PassthroughSubject` that finishes, fails and never ends, the pump tapping
    /// after the operator (for operators that drop what a subscriber has no demand for).
    static func overPassthroughSubject(_ name: String, acceptsZeroDemand: Bool = false, _ transform: @escaping Transform) -> [Entry] {
        [(Entry.Ending.finished, n, ""), (.failure, k, "(failure)"), (.never, k, "(never-ending)")].map { ending, count, suffix in
            Entry("\(name) over PassthroughSubject\(suffix)", elements: count, ending: ending, delivery: .hot,
                  acceptsZeroDemand: acceptsZeroDemand, forwardsValuesUnchanged: true) {
                Bodies.subject(PassthroughSubject<Int, TestFailure>(), count: count, ending: ending, sharing: transform)
            }
        }
    }

    /// What an operator makes of its upstream's values and ending.
    typealias Expectation = @Sendable ([Int], Entry.Ending) -> (values: [Int], ending: Entry.Ending)

    /// Operators that change the values, each with what it makes of them.
    ///
    /// `completesWithItsValue` marks those that send their last value and `.finished` as one
    /// emission (a cancel made inside `receive(_:)` of that value does not hold back the
    /// completion), as Combine's do.
    static let shapingOperators: [(name: String, transform: Transform, expect: Expectation, completesWithItsValue: Bool)] = [
        ("map { $0 * 2 }", { $0.map { $0 * 2 } }, { values, ending in (values.map { $0 * 2 }, ending) }, false),
        ("filter(even)", { $0.filter { $0.isMultiple(of: 2) } }, { values, ending in (values.filter { $0.isMultiple(of: 2) }, ending) }, false),
        ("compactMap(even)", { $0.compactMap { $0.isMultiple(of: 2) ? $0 : nil } },
         { values, ending in (values.filter { $0.isMultiple(of: 2) }, ending) }, false),
        ("scan(0, +)", { $0.scan(0, +) }, { values, ending in (runningSums(values), ending) }, false),
        ("map { $0 / 2 }.removeDuplicates()", { $0.map { $0 / 2 }.removeDuplicates() },
         { values, ending in (withoutRepeats(values.map { $0 / 2 }), ending) }, false),
        ("dropFirst(2)", { $0.dropFirst(2) }, { values, ending in (Array(values.dropFirst(2)), ending) }, false),
        ("prefix(2)", { $0.prefix(2) }, { values, ending in values.count >= 2 ? ([values[0], values[1]], .finished) : (values, ending) }, false),
        ("output(at: 1)", { $0.output(at: 1) }, { values, ending in values.count >= 2 ? ([values[1]], .finished) : ([], ending) }, true),
        ("first()", { $0.first() }, { values, ending in values.isEmpty ? ([], ending) : ([values[0]], .finished) }, true),
        ("first(where: == 1)", { $0.first { $0 == 1 } },
         { values, ending in values.contains(1) ? ([1], .finished) : ([], ending) }, true),
        ("last()", { $0.last() }, { values, ending in ending == .finished ? (Array(values.suffix(1)), ending) : ([], ending) }, true),
        ("ignoreOutput()", { $0.ignoreOutput().map(absurd) }, { _, ending in ([], ending) }, false),
        ("reduce(0, +)", { $0.reduce(0, +) }, { values, ending in (ending == .finished ? [values.reduce(0, +)] : [], ending) }, true),
        ("tryReduce(0, +)", { $0.tryReduce(0, +).mapError { $0 as! TestFailure } },
         { values, ending in (ending == .finished ? [values.reduce(0, +)] : [], ending) }, true),
        ("count()", { $0.count() }, { values, ending in (ending == .finished ? [values.count] : [], ending) }, true),
        ("collect().map(count)", { $0.collect().map { $0.count } },
         { values, ending in (ending == .finished ? [values.count] : [], ending) }, true),
        ("max()", { $0.max() }, { values, ending in (ending == .finished ? Array(values.max().map { [$0] } ?? []) : [], ending) }, true),
        ("contains(2)", { $0.contains(2).map { $0 ? 1 : 0 } },
         { values, ending in values.contains(2) ? ([1], .finished) : (ending == .finished ? [0] : [], ending) }, true),
        ("allSatisfy(>= 0)", { $0.allSatisfy { $0 >= 0 }.map { $0 ? 1 : 0 } },
         { _, ending in (ending == .finished ? [1] : [], ending) }, true),
        ("collect(2).map(sum)", { $0.collect(2).map { $0.reduce(0, +) } },
         { values, ending in (chunkSums(values, by: 2, keepingRest: ending == .finished), ending) }, false),
        ("append(100, 101)", { $0.append(100, 101) },
         { values, ending in ending == .finished ? (values + [100, 101], ending) : (values, ending) }, false),
        ("prepend(100)", { $0.prepend(100) }, { values, ending in ([100] + values, ending) }, false),
    ]

    static let operators: [Entry] = operatorTransforms.flatMap { (name: String, transform: @escaping Transform) -> [Entry] in
        operatorUpstreams.compactMap { (upstreamName: String) -> Entry? in
            let upstream = (core + subjects + bridge).first { $0.name == upstreamName }!
            if nonFailingUpstreamsOnly.contains(name) && upstream.ending == .failure { return nil }
            return operatorEntry(name, transform, over: upstream, forwardsValuesUnchanged: upstream.forwardsValuesUnchanged)
        }
    } + shapingOperators.flatMap { operation in
        operatorUpstreams.map { (upstreamName: String) -> Entry in
            let upstream = (core + subjects + bridge).first { $0.name == upstreamName }!
            return operatorEntry(
                operation.name, operation.transform, over: upstream, expect: operation.expect,
                completesWithItsValue: operation.completesWithItsValue)
        }
    }

    /// The operators of ``nonFailingUpstreamsOnly`` over the failing upstreams: their values
    /// are not declared (the entry declares the upstream's), so only the rules that compare no
    /// values take them (``everyPublisher``).
    static let operatorsWithUndeclaredValues: [Entry] = operatorTransforms.flatMap { (name: String, transform: @escaping Transform) -> [Entry] in
        operatorUpstreams.compactMap { (upstreamName: String) -> Entry? in
            let upstream = (core + subjects + bridge).first { $0.name == upstreamName }!
            guard nonFailingUpstreamsOnly.contains(name) && upstream.ending == .failure else { return nil }
            return operatorEntry(name, transform, over: upstream, declaresValues: false)
        }
    }

    /// `name` applied to `upstream`: the upstream's shape, with the operator in between, and
    /// the values and ending `expect` makes of the upstream's.
    static func operatorEntry(
        _ name: String, _ transform: @escaping Transform, over upstream: Entry,
        expect: Expectation? = nil, completesWithItsValue: Bool = false, forwardsValuesUnchanged: Bool = false,
        declaresValues: Bool = true
    ) -> Entry {
        // The million-element rule (3.3) is about recursion inside `request(_:)`, which these
        // operators leave to their upstream or wrap once: checked for a few, over the sequence,
        // so that it does not dominate the sanitizer runs.
        var scaled: (@Sendable (Int) -> Source)?
        if let upstreamScaled = upstream.scaled, upstream.name == "Publishers.Sequence", scaledOperators.contains(name) {
            scaled = { count in upstreamScaled(count).through(transform) }
        }
        let make: @Sendable () -> Source = { upstream.make().through(transform) }
        let (values, ending) = expect?(upstream.expectedValues, upstream.ending) ?? (upstream.expectedValues, upstream.ending)
        return Entry(
            "\(name) over \(upstream.name)", elements: values.count, values: values, ending: ending,
            delivery: upstream.delivery, isCold: upstream.isCold, hasEmptySubscription: upstream.hasEmptySubscription,
            acceptsZeroDemand: (upstream.acceptsZeroDemand || acceptingZeroDemand.contains(name))
                && !trappingZeroDemand.contains(name),
            completesWithItsValue: upstream.completesWithItsValue || completesWithItsValue,
            forwardsValuesUnchanged: forwardsValuesUnchanged, declaresValues: declaresValues, scaled: scaled, make: make)
    }

    /// No value: `ignoreOutput()`'s `Never` seen as `Int`.
    private static func absurd(_ never: Never) -> Int {}

    private static func runningSums(_ values: [Int]) -> [Int] {
        var sum = 0
        return values.map { value in
            sum += value
            return sum
        }
    }

    private static func withoutRepeats(_ values: [Int]) -> [Int] {
        values.enumerated().filter { index, value in index == 0 || values[index - 1] != value }.map(\.element)
    }

    private static func chunkSums(_ values: [Int], by size: Int, keepingRest: Bool) -> [Int] {
        stride(from: 0, to: values.count, by: size).compactMap { start in
            let chunk = values[start..<min(start + size, values.count)]
            return chunk.count == size || keepingRest ? chunk.reduce(0, +) : nil
        }
    }
}

extension Source {
    /// The same source (and pump) with `transform` applied to its publisher.
    func through(_ transform: @escaping Registry.Transform) -> Source {
        Source(transform(AnyPublisher(publisher)), subject: subject, pump: pump)
    }
}

/// A text stream that keeps nothing, for `print` in the registry.
struct DiscardingStream: TextOutputStream {
    mutating func write(_ string: String) {}
}
