import Sluice
import SluiceTesting
import Testing

/// The one failure every registry publisher fails with.
struct TestFailure: Error, Equatable, Sendable {}

/// The recorder every rule subscribes to a registry publisher.
typealias Recorder = RecordingSubscriber<Int, TestFailure>

/// A registry publisher made for one test: the publisher, plus, for hot publishers
/// (subjects), the pump that plays the part of the code sending into them.
///
/// A cold publisher delivers on demand by itself and has no pump. A hot one is fed by
/// `pump(recorder)`, which sends the next values while the recorder has demand, then the
/// ending once all values are out; rules call it after every demand they give, so a hot
/// publisher behaves as a finite source that honours demand.
///
/// Every entry's source also tracks when it lets go of each recorder (see Quiescence.swift), so
/// that rules can check with ``settle(_:)`` that it did before checking that nothing came after
/// a cancel.
struct Source {
    let publisher: any Publisher<Int, TestFailure>
    let pump: (@Sendable (Recorder) -> Void)?
    /// The subject a hot source's values are sent to: its publisher itself, or the subject
    /// under an operator (rules that race their own sends use it).
    let subject: (any Subject<Int, TestFailure>)?
    /// Set for every entry's source (``Entry`` sets it; not for a `scaled` one): recorders are
    /// subscribed through a ``ReleaseSignal``.
    private(set) var releases: ReleaseGates?
    /// Whether ``settle(_:)`` waits for the release (an asynchronous entry lets go from its own
    /// task) or checks that it has happened.
    private(set) var releasesLater = false

    init(
        _ publisher: any Publisher<Int, TestFailure>, subject: (any Subject<Int, TestFailure>)? = nil,
        pump: (@Sendable (Recorder) -> Void)? = nil
    ) {
        self.publisher = publisher
        self.pump = pump
        self.subject = subject ?? publisher as? any Subject<Int, TestFailure>
    }

    /// This source, tracking when its publisher releases each subscriber; `later`: from a task
    /// of its own, after the call that ended the subscription returned.
    func trackingReleases(later: Bool) -> Source {
        var source = self
        source.releases = ReleaseGates()
        source.releasesLater = later
        return source
    }

    /// Subscribes `recorder`, then feeds it if the publisher is hot.
    func subscribe(_ recorder: Recorder) {
        if let releases {
            publisher.subscribe(ReleaseSignal(recorder, gate: releases.make(for: recorder)))
        } else {
            publisher.subscribe(recorder)
        }
        pump?(recorder)
    }

    /// Whether the publisher let go of `recorder`, so that no signal can reach it any more unless
    /// the test gives one. A synchronous or hot source must have let go already (everything it
    /// does happens inside the test's own calls): checked, not awaited. An asynchronous one is
    /// awaited until it lets go (its producing task ended); `false` if the test's task was
    /// cancelled first (its time limit). Call it after a cancel or a completion.
    ///
    /// ```swift
    /// recorder.cancel()
    /// #expect(await source.settle(recorder))
    /// #expect(recorder.values == [0])
    /// ```
    func settle(_ recorder: Recorder) async -> Bool {
        guard let gate = releases?.gate(for: recorder) else { return true }   // a scaled source
        return releasesLater ? await gate.wait() : gate.isOpen
    }

    /// Requests through `recorder`, then feeds it if the publisher is hot.
    func request(_ demand: Subscribers.Demand, through recorder: Recorder) {
        recorder.request(demand)
        pump?(recorder)
    }
}

/// One publisher of the package in one shape, declaring what it can do so that each rule
/// runs where it applies and skips (with the reason in code) where it does not.
///
/// ```swift
/// Entry("Just", elements: 1, ending: .finished) { Source(Just(1).widened()) }
/// ```
struct Entry: Sendable, CustomTestStringConvertible {
    /// How the publisher ends after its values, given enough demand.
    enum Ending: Sendable, Equatable {
        /// `.finished`.
        case finished
        /// `.failure(TestFailure())`.
        case failure
        /// Never: no completion ever comes (values stop, the subscription stays open).
        case never
    }

    /// Where the values come from.
    enum Delivery: Sendable, Equatable {
        /// Synchronously, inside `request(_:)` (or `receive(subscription:)`).
        case synchronous
        /// From a task of the publisher's own, after `request(_:)` returned: rules await.
        case asynchronous
        /// From the test's pump (a subject): synchronous, but only as the pump sends.
        case hot
    }

    let name: String
    /// The number of values delivered before the ending, given demand.
    let elements: Int
    /// The values the entry promises: `0..<elements` unless declared (an operator that
    /// changes its upstream's values declares what it makes of them).
    let expectedValues: [Int]
    let ending: Ending
    let delivery: Delivery
    /// Each subscription to one publisher replays all values independently (rule 1.10).
    let isCold: Bool
    /// Its subscriber gets Combine's `Subscriptions.empty` (Empty, Fail, and the one-shot
    /// publishers that complete at once), which ignores every request, `.none` included; or a
    /// subscription that has completed before its subscriber can call it, and so ignores them
    /// as well (a `timeout` that fires at once: like Combine's, it checks no demand of its own).
    let hasEmptySubscription: Bool
    /// Its subscription is a `Publishers.Sequence` or `Record` one, which accepts
    /// `request(.none)` and adds nothing, as Combine's do.
    let acceptsZeroDemand: Bool
    /// It sends its one value and `.finished` as one emission, so a cancel made inside
    /// `receive(_:)` of that value does not hold back the completion (Combine's `Just`,
    /// `Optional.Publisher`, `Result.Publisher` and `Future` do this).
    let completesWithItsValue: Bool
    /// For a hot entry: every value sent into its subject reaches the subscriber unchanged, in
    /// the order sent (the subject itself, and the operators that leave values as they are), so
    /// a rule that sends its own values can check each sender's order.
    let forwardsValuesUnchanged: Bool
    /// `false` for an operator over an upstream for which it declares no values (see
    /// `Registry.operatorsWithUndeclaredValues`): `elements` and `expectedValues` are then the
    /// upstream's, and a rule must not wait for them.
    let declaresValues: Bool
    /// Makes the same kind of publisher with any number of elements (for the million-element
    /// recursion rule); nil when the count is fixed (`Just`) or too slow to scale.
    let scaled: (@Sendable (Int) -> Source)?
    let make: @Sendable () -> Source

    init(
        _ name: String, elements: Int, values: [Int]? = nil, ending: Ending, delivery: Delivery = .synchronous,
        isCold: Bool = true, hasEmptySubscription: Bool = false, acceptsZeroDemand: Bool = false,
        completesWithItsValue: Bool = false, forwardsValuesUnchanged: Bool = false, declaresValues: Bool = true,
        scaled: (@Sendable (Int) -> Source)? = nil, make: @escaping @Sendable () -> Source
    ) {
        self.declaresValues = declaresValues
        self.completesWithItsValue = completesWithItsValue
        self.forwardsValuesUnchanged = forwardsValuesUnchanged
        self.hasEmptySubscription = hasEmptySubscription
        self.acceptsZeroDemand = acceptsZeroDemand
        self.name = name
        expectedValues = values ?? Array(0..<elements)
        self.elements = expectedValues.count
        self.ending = ending
        self.delivery = delivery
        self.isCold = isCold && delivery != .hot
        self.scaled = scaled
        let later = delivery == .asynchronous
        self.make = { make().trackingReleases(later: later) }
    }

    var testDescription: String { name }

    /// Whether values arrive before `request(_:)` returns, so a rule may check at once.
    var isSynchronous: Bool { delivery != .asynchronous }

    /// The first `count` values the entry promises.
    func expectedPrefix(_ count: Int) -> [Int] { Array(expectedValues.prefix(count)) }

    /// The completion the entry promises, if it completes.
    var expectedCompletion: Subscribers.Completion<TestFailure>? {
        switch ending {
        case .finished: .finished
        case .failure: .failure(TestFailure())
        case .never: nil
        }
    }
}
