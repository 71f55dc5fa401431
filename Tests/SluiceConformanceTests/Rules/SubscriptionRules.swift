import Sluice
import SluiceTesting
import Testing

/// DESIGN rule 1 and Reactive Streams 1.9: a subscriber gets `receive(subscription:)` exactly
/// once, before anything else; 1.10: subscribing again to a cold publisher gives a fresh,
/// independent subscription.
@Suite("Rule 1: subscription first, exactly once; resubscription", .timeLimit(.minutes(12)))
struct SubscriptionRules {
    @Test("The subscription arrives first and once, whatever follows", arguments: Registry.everyPublisher)
    func subscriptionComesFirstExactlyOnce(entry: Entry) async {
        let (_, recorder) = entry.subscribe(initialDemand: .unlimited)
        if entry.declaresValues { await entry.awaitValues(entry.elements, of: recorder) }
        if entry.ending != .never { await entry.awaitCompletion(of: recorder) }
        let events = recorder.events
        #expect(events.first.map { if case .subscription = $0 { true } else { false } } == true)
        #expect(events.count { if case .subscription = $0 { true } else { false } } == 1)
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("A subscription alone (no demand) delivers no value", arguments: Registry.everyPublisher)
    func noValueBeforeDemand(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .none)
        // An asynchronous entry would deliver from its task, later: cancel, then wait until
        // its publisher let go of the subscriber, so that any such value is in by the check.
        recorder.cancel()
        #expect(await source.settle(recorder), "\(entry.name) never let go of its subscriber")
        // Rule 2 allows a completion without demand (Empty, Fail), never a value.
        #expect(recorder.values.isEmpty)
        #expect(recorder.violations.isEmpty)
    }

    @Test("Subscribing again to a cold publisher replays it independently (rule 1.10)", arguments: Registry.cold)
    func resubscriptionIsFreshAndIndependent(entry: Entry) async {
        let source = entry.make()
        let (_, waiting) = entry.subscribe(initialDemand: .none, source: source)
        let (_, eager) = entry.subscribe(initialDemand: .unlimited, source: source)
        await entry.awaitCompletion(of: eager)
        #expect(eager.values == entry.expectedValues)
        #expect(eager.completion == entry.expectedCompletion)
        #expect(waiting.values.isEmpty, "the first subscription keeps its own demand: none")
        waiting.request(.max(1))
        await entry.awaitValues(1, of: waiting)
        #expect(Array(waiting.values.prefix(1)) == entry.expectedPrefix(1), "and its own position: the start")
        waiting.request(.unlimited)
        await entry.awaitCompletion(of: waiting)
        #expect(waiting.values == entry.expectedValues)
        #expect(waiting.completion == entry.expectedCompletion)
        #expect(waiting.violations.isEmpty && eager.violations.isEmpty)
    }
}
