import Sluice
import SluiceExt
import SluiceTesting

/// SluiceExt's publishers and operators, held to the same rules as the core's: each operator
/// over the same upstreams (``operatorUpstreams``), with the values and ending it makes of
/// theirs, and `Publishers.Create` as a source.
extension Registry {
    /// SluiceExt's operators that leave the upstream's values and ending as they are.
    static let extOperatorTransforms: [(name: String, transform: Transform)] = [
        ("materialize().dematerialize()", { $0.materialize().dematerialize() }),
        ("prefix(while:behavior: .inclusive)", { $0.prefix(while: { $0 >= 0 }, behavior: .inclusive) }),
        ("withLatestFrom(Just) { value, _ in value }", {
            $0.withLatestFrom(Just(0).setFailureType(to: TestFailure.self)) { value, _ in value }
        }),
        ("removeAllDuplicates()", { $0.removeAllDuplicates() }),
        ("[upstream].combineLatest()", { [$0].combineLatest().map { $0[0] } }),
        ("[upstream].zip()", { [$0].zip().map { $0[0] } }),
        // A contender that never signals: the upstream wins with its first signal.
        ("amb(Empty(completeImmediately: false))", { $0.amb(Empty(completeImmediately: false)) }),
        ("[upstream].flatMapBatches(of: 1)", { [$0].flatMapBatches(of: 1).map { $0[0] } }),
    ]

    /// SluiceExt's operators whose own subscription traps on `request(.none)`, as Combine's
    /// operators of their kind do (see ``trappingZeroDemand``).
    static let extTrappingZeroDemand: Set<String> = [
        "materialize().dematerialize()", "prefix(while:behavior: .inclusive)", "withLatestFrom(Just) { value, _ in value }",
        "ignoreFailure()", "amb(Empty(completeImmediately: false))",
        "[upstream].flatMapBatches(of: 1)", "retryWhen { $0.first().ignoreOutput() }", "flatMapFirst { Just($0) }", "flatMapLatest { Just($0) }",
        "retry(1, backoff: .constant(.zero))", "[upstream].combineLatest()", "[upstream].zip()",
    ]

    /// SluiceExt's operators that change the values or the ending, each with what it makes of
    /// them.
    static let extShapingOperators: [(name: String, transform: Transform, expect: Expectation)] = [
        ("mapToValue(7)", { $0.mapToValue(7) }, { values, ending in (values.map { _ in 7 }, ending) }),
        ("enumerated().map(index)", { $0.enumerated(initial: 10).map(\.index) },
         { values, ending in (values.indices.map { $0 + 10 }, ending) }),
        ("pairwise().map(second)", { $0.pairwise().map { $1 } }, { values, ending in (Array(values.dropFirst()), ending) }),
        ("ignoreFailure()", { $0.ignoreFailure().setFailureType(to: TestFailure.self) },
         { values, ending in (values, ending == .failure ? .finished : ending) }),
        // A trigger that finishes at the first failure: the stream finishes instead of failing.
        ("retryWhen { $0.first().ignoreOutput() }", { $0.retryWhen { $0.first().ignoreOutput() } },
         { values, ending in (values, ending == .failure ? .finished : ending) }),
    ]

    /// SluiceExt's operators whose values depend on the downstream's demand or the upstream's
    /// kind: a value that comes while an inner publisher waits for demand is dropped
    /// (`flatMapFirst`) or cancels it (`flatMapLatest`), as CombineExt's do. Only the rules
    /// that compare no values take them.
    static let extOperatorsWithUndeclaredValues: [(name: String, transform: Transform)] = [
        ("flatMapFirst { Just($0) }", { $0.flatMapFirst { Just($0).setFailureType(to: TestFailure.self) } }),
        ("flatMapLatest { Just($0) }", { $0.flatMapLatest { Just($0).setFailureType(to: TestFailure.self) } }),
        // Over a failing upstream its values depend on the upstream: a cold one replays them, a
        // subject that failed fails the new subscription at once.
        ("retry(1, backoff: .constant(.zero))", {
            $0.retry(1, backoff: .constant(.zero), scheduler: ImmediateScheduler.shared)
        }),
    ]

    /// SluiceExt's operators whose values are declared only over the upstreams that do not
    /// fail: `flatMapBatches` zips each batch, and a zip's failure overtakes a value still
    /// waiting for demand, as ``nonFailingUpstreamsOnly`` says of Sluice's `zip`.
    static let extNonFailingUpstreamsOnly: Set<String> = ["[upstream].flatMapBatches(of: 1)", "[upstream].zip()"]

    /// `ReplaySubject` with and without kept values, and `share(replay:)` over a subject: what a
    /// subscriber has no demand for waits in its backlog (see `Bodies.backlogged`).
    static let extSubjects: [Entry] = [(Entry.Ending.finished, n, ""), (.failure, k, "(failure)"), (.never, k, "(never-ending)")]
        .flatMap { ending, count, suffix in
            [
                Entry("ReplaySubject(bufferSize: 0)\(suffix)", elements: count, ending: ending, delivery: .hot, forwardsValuesUnchanged: true) {
                    Bodies.backlogged(ReplaySubject<Int, TestFailure>(bufferSize: 0), count: count, ending: ending)
                },
                Entry("ReplaySubject(bufferSize: 2)\(suffix)", elements: count, ending: ending, delivery: .hot, forwardsValuesUnchanged: true) {
                    Bodies.backlogged(ReplaySubject<Int, TestFailure>(bufferSize: 2), count: count, ending: ending)
                },
                Entry("share(replay: 1) over PassthroughSubject\(suffix)", elements: count, ending: ending, delivery: .hot,
                      forwardsValuesUnchanged: true) {
                    Bodies.backlogged(PassthroughSubject<Int, TestFailure>(), count: count, ending: ending, sharing: { $0.share(replay: 1) })
                },
            ]
        }

    /// The relays, which never complete: fed by the usual subject pump through ``RelayFeed``.
    static let extRelays: [Entry] = [
        Entry("PassthroughRelay(never-ending)", elements: k, ending: .never, delivery: .hot, forwardsValuesUnchanged: true) {
            Bodies.subject(RelayFeed(PassthroughRelay<Int>()), count: k, ending: .never)
        },
        Entry("CurrentValueRelay(never-ending)", elements: 1, ending: .never, delivery: .hot, forwardsValuesUnchanged: true) {
            Bodies.subject(RelayFeed(CurrentValueRelay(0), current: { $0.value }), count: 1, ending: .never)
        },
    ]

    /// The entries of SluiceExt whose values are declared.
    static let ext: [Entry] = extSources + extSubjects + extRelays
        + extOperatorTransforms.flatMap { operation in
            extUpstreams.compactMap { upstream in
                if extNonFailingUpstreamsOnly.contains(operation.name) && upstream.ending == .failure { return nil }
                return operatorEntry(operation.name, operation.transform, over: upstream, forwardsValuesUnchanged: upstream.forwardsValuesUnchanged)
            }
        }
        + extShapingOperators.flatMap { operation in
            extUpstreams.map { upstream in operatorEntry(operation.name, operation.transform, over: upstream, expect: operation.expect) }
        }

    /// The entries of SluiceExt whose values are not declared.
    static let extWithUndeclaredValues: [Entry] = extOperatorsWithUndeclaredValues.flatMap { operation in
        extUpstreams.map { upstream in operatorEntry(operation.name, operation.transform, over: upstream, declaresValues: false) }
    } + extOperatorTransforms.filter { extNonFailingUpstreamsOnly.contains($0.name) }.flatMap { operation in
        extUpstreams.filter { $0.ending == .failure }.map { upstream in
            operatorEntry(operation.name, operation.transform, over: upstream, declaresValues: false)
        }
    }

    /// `Publishers.Create` sending its values and ending from the factory, all at once: what
    /// the subscriber has no demand for waits in its buffer, whose subscription (Sluice's
    /// `buffer`) accepts `request(.none)`.
    static let extSources: [Entry] = [
        Entry("Publishers.Create", elements: n, ending: .finished, acceptsZeroDemand: true) { create(n, .finished) },
        Entry("Publishers.Create(failure)", elements: 0, ending: .failure, acceptsZeroDemand: true) { create(0, .failure(TestFailure())) },
    ]

    private static var extUpstreams: [Entry] {
        operatorUpstreams.map { name in (core + subjects + bridge).first { $0.name == name }! }
    }

    private static func create(_ count: Int, _ completion: Subscribers.Completion<TestFailure>) -> Source {
        Source(Publishers.Create<Int, TestFailure> { subscriber in
            (0..<count).forEach(subscriber.send)
            subscriber.send(completion: completion)
            return AnyCancellable {}
        })
    }
}

/// A relay seen as a subject of the registry's types, so that the subject pump can feed it:
/// values go to `accept`, a completion nowhere (a relay never completes), and subscribers get
/// the relay's own subscription, its failure type widened (``WidenedFailure``).
final class RelayFeed<R: Relay & Sendable>: Subject, Sendable where R.Output == Int {
    typealias Output = Int
    typealias Failure = TestFailure
    let relay: R
    /// A `CurrentValueRelay`'s value, which the pump must not send again.
    let current: (@Sendable (R) -> Int)?

    init(_ relay: R, current: (@Sendable (R) -> Int)? = nil) {
        self.relay = relay
        self.current = current
    }

    var currentValue: Int? { current?(relay) }
    func send(_ value: Int) { relay.accept(value) }
    func send(completion: Subscribers.Completion<TestFailure>) {}
    func send(subscription: any Subscription) { subscription.request(.unlimited) }
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestFailure {
        relay.widened().subscribe(subscriber)
    }
}
