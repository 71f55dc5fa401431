import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}

@Suite("prefix(untilOutputFrom:) and drop(untilOutputFrom:)", .timeLimit(.minutes(12)))
struct UntilOutputTests {
    @Test("drop(untilOutputFrom:)'s subscriber of the other publisher reads as DropUntilOutput, with an empty mirror, as Combine's")
    func dropUntilOutputOtherReflection() throws {
        let other = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        PassthroughSubject<Int, Never>().drop(untilOutputFrom: other).subscribe(recorder)
        let raw = try #require(other.raw)
        #expect(String(describing: raw) == "DropUntilOutput")
        #expect((raw as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "DropUntilOutput")
        let mirror = try #require((raw as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.isEmpty)
        recorder.cancel()
    }

    @Test("prefix(untilOutputFrom:)'s subscription and its subscriber of the other publisher have no description or mirror of their own, as Combine's")
    func prefixUntilOutputReflection() throws {
        let other = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        PassthroughSubject<Int, Never>().prefix(untilOutputFrom: other).subscribe(recorder)
        for value in [try #require(other.raw) as Any, try #require(recorder.subscription) as Any] {
            #expect(!(value is any CustomStringConvertible))
            #expect(!(value is any CustomReflectable))
            #expect(!(value is any CustomPlaygroundDisplayConvertible))
        }
        recorder.cancel()
        other.subscriber = nil
        other.raw = nil
    }

    @Test("prefix: the other publisher's first value finishes the stream and cancels the upstream")
    func prefixEndsOnTrigger() {
        let upstream = ControllablePublisher<Int, Never>()
        let trigger = ControllablePublisher<String, Boom>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(5))
        defer { recorder.cancel() }
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        #expect(trigger.subscriptions[0].requests == [.max(1)])
        #expect(upstream.subscriptions[0].requests == [.max(5)], "demand passes through")
        _ = upstream.subscriptions[0].send(1)
        _ = trigger.subscriptions[0].send("stop")
        #expect(recorder.values == [1] && recorder.completion == .finished)
        #expect(upstream.subscriptions[0].cancelCount == 1)
        _ = upstream.subscriptions[0].send(2)
        #expect(recorder.values == [1] && recorder.violations.isEmpty)
    }

    @Test("prefix: the other publisher ending without a value, even failing, changes nothing")
    func prefixIgnoresTriggerEnding() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Boom>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        trigger.send(completion: .failure(Boom()))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.values == [1] && recorder.completion == .finished && recorder.violations.isEmpty)
    }

    @Test("drop: values before the other publisher's first are dropped and use up their demand, as in Combine")
    func dropUntilTrigger() {
        let upstream = ControllablePublisher<Int, Boom>()
        defer { upstream.detachAll() }
        let trigger = PassthroughSubject<Void, Boom>()
        // A fired trigger is let go of, not cancelled (as in Combine): the subject keeps its
        // subscriber until it ends.
        defer { trigger.send(completion: .finished) }
        let recorder = RecordingSubscriber<Int, Boom>(initialDemand: .max(3))
        defer { recorder.cancel() }
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        #expect(upstream.subscriptions[0].send(1) == .none, "no replacement is requested for a dropped value")
        trigger.send(())
        _ = upstream.subscriptions[0].send(2)
        _ = upstream.subscriptions[0].send(3)
        #expect(recorder.values == [2, 3])
        #expect(upstream.subscriptions[0].requests == [.max(3)])
        upstream.subscriptions[0].send(completion: .finished)
        #expect(recorder.completion == .finished && recorder.violations.isEmpty)
    }

    @Test("drop: once its value has opened the stream, the other publisher is let go of, not cancelled, and its completion is ignored, as in Combine")
    func dropLetsGoOfFiredTrigger() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        _ = trigger.subscriptions[0].send(1)
        trigger.subscriptions[0].send(completion: .finished)
        upstream.send(2)
        #expect(recorder.values == [2] && recorder.completion == nil && recorder.violations.isEmpty)
        recorder.cancel()
        #expect(trigger.subscriptions[0].cancelCount == 0, "let go of when it fired: the cancel does not reach it")
    }

    @Test("drop: a trigger that sends its value inside the request is never cancelled, and its completion after is ignored")
    func dropSynchronousTrigger() {
        let upstream = PassthroughSubject<Int, Never>()
        var cancels = 0
        let trigger = Just(0).handleEvents(receiveCancel: { cancels += 1 })
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        upstream.send(5)
        #expect(recorder.values == [5] && recorder.completion == nil)
        #expect(cancels == 0 && recorder.violations.isEmpty)
    }

    @Test("drop: an upstream value to drop with no demand left traps (rule 2), as Combine's does", .exitTest)
    func dropTrapsBeyondDemand() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ControllablePublisher<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
            upstream.drop(untilOutputFrom: Empty<Void, Never>(completeImmediately: false)).subscribe(recorder)
            _ = upstream.subscriptions[0].send(1)   // dropped: uses up the one requested
            _ = upstream.subscriptions[0].send(2)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("DropUntilOutput received a value beyond the demand it requested (rule 2)"))
        }
    }

    @Test("drop: an upstream subscription that comes after the other publisher ended the stream is taken and asked for the demand, as in Combine")
    func dropLateUpstreamSubscription() {
        let upstream = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.drop(untilOutputFrom: Empty<Void, Never>()).subscribe(recorder)
        #expect(recorder.completion == .finished)
        let late = LoggingSubscription()
        upstream.subscriber?.receive(subscription: late)
        #expect(late.requests == [.max(3)] && late.cancelCount == 0)
        let second = LoggingSubscription()
        upstream.subscriber?.receive(subscription: second)
        #expect(second.cancelCount == 1 && second.requests.isEmpty)
    }

    @Test("drop: a second subscription of the other publisher is cancelled; after its value, a new one is taken and asked for one")
    func dropOtherSubscriptions() {
        let upstream = ControllablePublisher<Int, Never>()
        let trigger = HandingPublisher<Void, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        let first = LoggingSubscription(), second = LoggingSubscription(), third = LoggingSubscription()
        trigger.subscriber?.receive(subscription: first)
        trigger.subscriber?.receive(subscription: second)
        #expect(first.requests == [.max(1)] && second.cancelCount == 1)
        _ = trigger.subscriber?.receive(())
        trigger.subscriber?.receive(subscription: third)
        #expect(third.requests == [.max(1)])
        recorder.cancel()
        #expect(third.cancelCount == 1 && first.cancelCount == 0 && upstream.subscriptions[0].cancelCount == 1)
    }

    @Test("prefix: the subscriber gets its subscription with the upstream's, and a value before that is ignored, as in Combine")
    func prefixHandsDownWithUpstream() {
        let upstream = HandingPublisher<Int, Never>()
        let trigger = ControllablePublisher<Void, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        defer { recorder.cancel() }
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        #expect(recorder.events.isEmpty && trigger.subscriptions[0].requests == [.max(1)])
        #expect(upstream.subscriber?.receive(1) == Subscribers.Demand.none)
        let subscription = LoggingSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        #expect(recorder.subscription != nil && recorder.values.isEmpty && subscription.requests == [.max(2)])
    }

    @Test("prefix: the trigger firing before the upstream's subscription finishes the subscriber, and that subscription is cancelled, as in Combine")
    func prefixTriggerBeforeUpstream() {
        let upstream = HandingPublisher<Int, Never>()
        let trigger = ControllablePublisher<Void, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        _ = trigger.subscriptions[0].send(())
        #expect(recorder.completion == .finished && recorder.subscription == nil)
        #expect(trigger.subscriptions[0].cancelCount == 0, "let go of, not cancelled")
        let subscription = LoggingSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        #expect(subscription.cancelCount == 1 && subscription.requests.isEmpty)
    }

    @Test("prefix: the trigger firing cancels the upstream before the completion and is let go of, not cancelled, as in Combine")
    func prefixTriggerNotCancelled() {
        let upstream = ControllablePublisher<Int, Never>()
        let trigger = ControllablePublisher<Void, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        _ = trigger.subscriptions[0].send(())
        #expect(recorder.completion == .finished && upstream.subscriptions[0].cancelCount == 1)
        recorder.cancel()
        #expect(trigger.subscriptions[0].cancelCount == 0)
    }

    @Test("prefix: the upstream completing before its subscription cancels the trigger and reaches nobody, as in Combine")
    func prefixCompletionBeforeSubscription() {
        let upstream = HandingPublisher<Int, Never>()
        let trigger = ControllablePublisher<Void, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        upstream.subscriber?.receive(completion: .finished)
        #expect(recorder.events.isEmpty && trigger.subscriptions[0].cancelCount == 1)
    }

    @Test("drop: the other publisher ending without a value ends the stream the same way and cancels the upstream")
    func dropEndsWithTrigger() {
        for ending in [Subscribers.Completion<Boom>.finished, .failure(Boom())] {
            let upstream = ControllablePublisher<Int, Boom>()
            let trigger = PassthroughSubject<Void, Boom>()
            let recorder = RecordingSubscriber<Int, Boom>()
            upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
            trigger.send(completion: ending)
            #expect(recorder.completion == ending)
            #expect(upstream.subscriptions[0].cancelCount == 1)
        }
        // A trigger that fires then finishes leaves the stream running.
        let upstream = PassthroughSubject<Int, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>()
        upstream.drop(untilOutputFrom: Just(()).setFailureType(to: Boom.self)).subscribe(recorder)
        upstream.send(1)
        #expect(recorder.values == [1] && recorder.completion == nil)
        recorder.cancel()
    }

    @Test("cancel cancels the upstream and the other publisher; the upstream finishing cancels the other, not itself, as in Combine")
    func cancellation() {
        let upstream = ControllablePublisher<Int, Never>()
        let trigger = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        recorder.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1 && trigger.subscriptions[0].cancelCount == 1)

        let second = ControllablePublisher<Int, Never>()
        let secondTrigger = ControllablePublisher<Int, Never>()
        let finished = RecordingSubscriber<Int, Never>()
        second.prefix(untilOutputFrom: secondTrigger).subscribe(finished)
        second.subscriptions[0].send(completion: .finished)
        #expect(finished.completion == .finished && secondTrigger.subscriptions[0].cancelCount == 1)
        #expect(second.subscriptions[0].cancelCount == 0, "it completed: nothing to cancel")
    }

    @Test("a trigger firing on another thread while values are delivered: the completion never overlaps a value, and nothing follows it")
    func triggerRacingValues() {
        for _ in 0..<200 {
            let upstream = PassthroughSubject<Int, Never>()
            let trigger = PassthroughSubject<Void, Never>()
            let recorder = RecordingSubscriber<Int, Never>()
            upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
            runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    for value in 0..<200 { upstream.send(value) }
                } else {
                    trigger.send(())
                }
            }
            #expect(recorder.completion == .finished)
            #expect(recorder.values == Array(0..<recorder.values.count), "values lost or reordered")
            #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(2))")
            // The fired trigger is let go of, not cancelled (as in Combine): the subject keeps
            // its subscriber until it ends.
            trigger.send(completion: .finished)
        }
    }
}

extension UntilOutputTests {
    @Test("request(.none) passes to the upstream, as Combine's does",
          arguments: [false, true])
    func zeroRequestPassesOn(dropping: Bool) {
        let upstream = ControllablePublisher<Int, Boom>()
        let trigger = ControllablePublisher<Void, Boom>()
        defer { upstream.detachAll(); trigger.detachAll() }
        let recorder = RecordingSubscriber<Int, Boom>(initialDemand: .none)
        defer { recorder.cancel() }
        let publisher = dropping
            ? upstream.drop(untilOutputFrom: trigger).eraseToAnyPublisher()
            : upstream.prefix(untilOutputFrom: trigger).eraseToAnyPublisher()
        publisher.subscribe(recorder)
        recorder.request(.none)
        recorder.request(.max(2))
        #expect(upstream.subscriptions[0].requests == [.none, .max(2)] && recorder.violations.isEmpty)
    }

    @Test("the upstream and the other publisher see subscribers with one combineIdentifier, as in Combine",
          arguments: [false, true])
    func oneCombineIdentifier(dropping: Bool) throws {
        let upstream = LatePublisher<Int, Boom>()
        let trigger = LatePublisher<Void, Boom>()
        let recorder = RecordingSubscriber<Int, Boom>()
        let publisher = dropping
            ? upstream.drop(untilOutputFrom: trigger).eraseToAnyPublisher()
            : upstream.prefix(untilOutputFrom: trigger).eraseToAnyPublisher()
        publisher.subscribe(recorder)
        let upstreamSide = try #require(upstream.waitingSubscribers.first?.raw as? any CustomCombineIdentifierConvertible)
        let triggerSide = try #require(trigger.waitingSubscribers.first?.raw as? any CustomCombineIdentifierConvertible)
        #expect(upstreamSide.combineIdentifier == triggerSide.combineIdentifier)
        recorder.cancel()
    }

    @Test("prefix: a value the other publisher sends after its completion is ignored, as Combine's does, and nothing that completed is cancelled")
    func triggerValueAfterItsCompletion() {
        let upstream = ControllablePublisher<Int, Never>()
        let trigger = ControllablePublisher<Int, Boom>()
        defer { upstream.detachAll(); trigger.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        defer { recorder.cancel() }
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        trigger.subscriptions[0].send(completion: .failure(Boom()))
        #expect(trigger.subscriptions[0].send(42) == .none)
        #expect(upstream.subscriptions[0].send(1) == .max(2))
        #expect(recorder.values == [1] && recorder.completion == nil)
        #expect(upstream.subscriptions[0].cancelCount == 0 && trigger.subscriptions[0].cancelCount == 0)
        #expect(recorder.violations.isEmpty)
    }
}
