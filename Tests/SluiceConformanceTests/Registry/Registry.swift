import Sluice
import SluiceTesting

/// Every publisher of the package, in each shape it can take: "a publisher of n elements"
/// (`ending: .finished`), "a failing publisher" (`.failure` after `elements` values) and "a
/// never-ending publisher" (`.never`). Rules take their arguments from here, so adding an
/// entry covers a new publisher with every rule that applies to it.
///
/// To add a publisher: append entries to the group it belongs to (``core``, ``subjects``,
/// ``bridge``), declaring its element count, ending, delivery and whether it is cold; give
/// `scaled` if it can be made with any number of elements.
enum Registry {
    /// The element count of scalable finite entries.
    static let n = 5
    /// The values a scalable failing entry sends before failing.
    static let k = 3

    /// Every entry whose values and ending are declared: the rules that compare values take
    /// theirs from here.
    static let all: [Entry] = core + subjects + bridge + operators + sharing + scheduling + timing + buffering + ext
    /// ``all``, and the operators over upstreams for which they declare no values (see
    /// ``operatorsWithUndeclaredValues``): for the rules that do not compare values (release,
    /// cancel, the subscription first and once, no value without demand).
    static let everyPublisher: [Entry] = all + operatorsWithUndeclaredValues + extWithUndeclaredValues

    /// Entries that complete (finish or fail): the rules that drain an entry to its
    /// completion (to be sure no value is still on its way) skip the never-ending ones.
    static let completing: [Entry] = all.filter { $0.ending != .never }
    /// Entries with at least `count` values before they complete, for rules that split the
    /// demand (`Just` has no second value to hold back).
    static func completing(withAtLeast count: Int) -> [Entry] {
        completing.filter { $0.elements >= count }
    }
    /// Entries that never complete: they stay open until cancelled.
    static let neverEnding: [Entry] = all.filter { $0.ending == .never }
    /// Entries that can be made with a million values delivered synchronously. Rule 3.3 is
    /// about recursion inside `request(_:)`; an asynchronous entry delivers from its own task's
    /// loop and cannot recurse (and a million task-hops would take minutes).
    static let scalable: [Entry] = all.filter { $0.scaled != nil && $0.isSynchronous }
    /// Cold entries with values: each subscription replays them (rule 1.10). Subjects are hot:
    /// a second subscriber sees only what is sent after it subscribed.
    static let cold: [Entry] = all.filter { $0.isCold && $0.ending != .never && $0.elements >= 1 }

    /// Entries whose subscription traps on `request(.none)`, as Combine's do: all but those
    /// given `Subscriptions.empty` and the sequence and record ones.
    static let trappingZeroRequests: [Entry] = all.filter { !$0.hasEmptySubscription && !$0.acceptsZeroDemand }
    /// Entries whose subscription accepts `request(.none)` and adds nothing.
    static let acceptingZeroRequests: [Entry] = all.filter { $0.acceptsZeroDemand }

    /// Looks an entry up by name (for exit tests, which can capture only the name).
    static func entry(named name: String) -> Entry? { all.first { $0.name == name } }

    // MARK: The core publishers

    static let core: [Entry] = [
        Entry("Just", elements: 1, ending: .finished, completesWithItsValue: true) { Source(Just(0).widened()) },
        Entry("Optional.Publisher(some)", elements: 1, ending: .finished, completesWithItsValue: true) {
            Source(Optional<Int>.Publisher(0).widened())
        },
        Entry("Optional.Publisher(nil)", elements: 0, ending: .finished, hasEmptySubscription: true) {
            Source(Optional<Int>.Publisher(nil).widened())
        },
        Entry("Result.Publisher(success)", elements: 1, ending: .finished, completesWithItsValue: true) {
            Source(Result<Int, TestFailure>.Publisher(0))
        },
        Entry("Result.Publisher(failure)", elements: 0, ending: .failure, hasEmptySubscription: true) {
            Source(Result<Int, TestFailure>.Publisher(TestFailure()))
        },
        Entry("Empty", elements: 0, ending: .finished, hasEmptySubscription: true) { Source(Empty<Int, TestFailure>()) },
        Entry("Empty(completeImmediately: false)", elements: 0, ending: .never, hasEmptySubscription: true) {
            Source(Empty<Int, TestFailure>(completeImmediately: false))
        },
        Entry("Fail", elements: 0, ending: .failure, hasEmptySubscription: true) { Source(Fail<Int, TestFailure>(error: TestFailure())) },
        Entry("Sequence.publisher", elements: n, ending: .finished, acceptsZeroDemand: true, scaled: { Source((0..<$0).publisher.widened()) }) {
            Source((0..<n).publisher.widened())
        },
        Entry("Publishers.Sequence", elements: n, ending: .finished, acceptsZeroDemand: true, scaled: { sequence($0) }) { sequence(n) },
        Entry("Record(finished)", elements: n, ending: .finished, acceptsZeroDemand: true, scaled: { record($0, .finished) }) {
            record(n, .finished)
        },
        Entry("Record(failure)", elements: k, ending: .failure, acceptsZeroDemand: true, scaled: { record($0, .failure(TestFailure())) }) {
            record(k, .failure(TestFailure()))
        },
        Entry("Record { recording }", elements: 2, ending: .finished, acceptsZeroDemand: true) {
            Source(Record<Int, TestFailure> { recording in
                recording.receive(0)
                recording.receive(1)
                recording.receive(completion: .finished)
            })
        },
        Entry("Deferred", elements: n, ending: .finished, acceptsZeroDemand: true, scaled: { count in Source(Deferred { numbers(count) }) }) {
            Source(Deferred { numbers(n) })
        },
        Entry("Deferred(Fail)", elements: 0, ending: .failure, hasEmptySubscription: true) {
            Source(Deferred { Fail<Int, TestFailure>(error: TestFailure()) })
        },
        Entry("AnyPublisher", elements: n, ending: .finished, acceptsZeroDemand: true, scaled: { Source(numbers($0).eraseToAnyPublisher()) }) {
            Source(numbers(n).eraseToAnyPublisher())
        },
        Entry("Future(success)", elements: 1, ending: .finished, completesWithItsValue: true) {
            Source(Future<Int, TestFailure> { promise in promise(.success(0)) })
        },
        Entry("Future(failure)", elements: 0, ending: .failure) {
            Source(Future<Int, TestFailure> { promise in promise(.failure(TestFailure())) })
        },
        Entry("Future(fulfilled later)", elements: 1, ending: .finished, delivery: .asynchronous, completesWithItsValue: true) {
            Source(Future<Int, TestFailure> { promise in
                let promise = Unchecked(promise)
                Task { promise.value(.success(0)) }
            })
        },
        Entry("Future(failed later)", elements: 0, ending: .failure, delivery: .asynchronous) {
            Source(Future<Int, TestFailure> { promise in
                let promise = Unchecked(promise)
                Task { promise.value(.failure(TestFailure())) }
            })
        },
        Entry("Future(unfulfilled)", elements: 0, ending: .never) {
            Source(Future<Int, TestFailure> { _ in })
        },
        Entry("Publishers.Emitting", elements: n, ending: .finished, scaled: { Source(Bodies.emitting(count: $0, ending: .finished)) }) {
            Source(Bodies.emitting(count: n, ending: .finished))
        },
        Entry("Publishers.Emitting(failure)", elements: k, ending: .failure) {
            Source(Bodies.emitting(count: k, ending: .failure))
        },
        Entry("AnyPublisher.emitting(never-ending)", elements: k, ending: .never) {
            Source(AnyPublisher<Int, TestFailure>.emitting(Bodies.emitting(count: k, ending: .never).body))
        },
        Entry("AnyPublisher.emitting", elements: n, ending: .finished) {
            Source(AnyPublisher<Int, TestFailure>.emitting(Bodies.emitting(count: n, ending: .finished).body))
        },
    ]

    static func numbers(_ count: Int) -> Publishers.Sequence<Range<Int>, TestFailure> {
        Publishers.Sequence(sequence: 0..<count)
    }

    static func sequence(_ count: Int) -> Source { Source(numbers(count)) }

    static func record(_ count: Int, _ completion: Subscribers.Completion<TestFailure>) -> Source {
        Source(Record<Int, TestFailure>(output: Array(0..<count), completion: completion))
    }

    // MARK: The subjects, fed by a pump (see `Bodies.subject`)

    static let subjects: [Entry] = [
        Entry("PassthroughSubject", elements: n, ending: .finished, delivery: .hot, forwardsValuesUnchanged: true, scaled: { passthrough($0, .finished) }) {
            passthrough(n, .finished)
        },
        Entry("PassthroughSubject(failure)", elements: k, ending: .failure, delivery: .hot, forwardsValuesUnchanged: true) { passthrough(k, .failure) },
        Entry("PassthroughSubject(never-ending)", elements: k, ending: .never, delivery: .hot, forwardsValuesUnchanged: true) { passthrough(k, .never) },
        Entry("CurrentValueSubject", elements: n, ending: .finished, delivery: .hot, forwardsValuesUnchanged: true, scaled: { currentValue($0, .finished) }) {
            currentValue(n, .finished)
        },
        Entry("CurrentValueSubject(failure)", elements: k, ending: .failure, delivery: .hot, forwardsValuesUnchanged: true) { currentValue(k, .failure) },
        Entry("CurrentValueSubject(never-ending)", elements: 1, ending: .never, delivery: .hot, forwardsValuesUnchanged: true) { currentValue(1, .never) },
    ]

    static func passthrough(_ count: Int, _ ending: Entry.Ending) -> Source {
        Bodies.subject(PassthroughSubject<Int, TestFailure>(), count: count, ending: ending)
    }

    static func currentValue(_ count: Int, _ ending: Entry.Ending) -> Source {
        Bodies.subject(CurrentValueSubject<Int, TestFailure>(0), count: count, ending: ending)
    }
}
