import Dispatch
import Sluice
import SluiceTesting
import Testing

private struct Oops: Error, Equatable {}

/// A subscriber that only keeps itself alive through the subscription, to check release.
private final class Tracked: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var subscription: (any Subscription)?
    func receive(subscription: any Subscription) { self.subscription = subscription }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}

@Suite(.timeLimit(.minutes(12))) struct OneShotPublisherTests {
    @Test func justWithoutDemandSendsOnlyTheSubscription() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.cancel()  // the subscription and the recorder hold each other until then
    }

    @Test func justDeliversValueThenFinishesOnFirstDemand() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Just(7).subscribe(recorder)
        recorder.request(.max(1))
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(7), .completion(.finished)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func justServesEverySubscriberAndIsEquatable() {
        let just = Just("a")
        let first = RecordingSubscriber<String, Never>()
        let second = RecordingSubscriber<String, Never>()
        just.subscribe(first)
        just.subscribe(second)
        #expect(first.values == ["a"] && second.values == ["a"])
        #expect(just == Just("a") && just != Just("b") && just.output == "a")
    }

    @Test func justCancelledBeforeDemandSendsNothing() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(recorder)
        recorder.cancel()
        recorder.cancel()
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func justSubscriptionReleasesSubscriberAfterCancelAndAfterCompletion() {
        weak var cancelled: Tracked?
        weak var completed: Tracked?
        var subscriptions: [any Subscription] = []
        do {
            let a = Tracked()
            let b = Tracked()
            cancelled = a
            completed = b
            Just(1).subscribe(a)
            Just(2).subscribe(b)
            subscriptions = [a.subscription!, b.subscription!]
            a.subscription = nil
            b.subscription = nil
        }
        #expect(cancelled != nil && completed != nil)
        subscriptions[0].cancel()
        subscriptions[1].request(.max(1))
        #expect(cancelled == nil)
        #expect(completed == nil)
    }

    @Test func justCancelRacingRequestDeliversAtMostOnceAndCompletesConsistently() {
        for _ in 0..<StressBudget.scaled(2_000) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            Just(1).subscribe(recorder)
            runConcurrently(threads: 2) { index in
                if index == 0 { recorder.request(.max(1)) } else { recorder.cancel() }
            }
            #expect(recorder.violations.isEmpty)
            let events = recorder.events
            #expect(events == [.subscription] || events == [.subscription, .value(1), .completion(.finished)])
        }
    }

    @Test func justRequestFromInsideReceiveDoesNotDeliverTwice() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        recorder.onValue { [weak recorder] _ in
            recorder?.request(.max(5))
            recorder?.cancel()
            return .max(1)
        }
        Just(3).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func justDescribesItsSubscriptionLikeCombine() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Just(5).subscribe(recorder)
        let subscription = recorder.subscription!
        #expect(String(describing: subscription) == "Just")
        let children = Mirror(reflecting: subscription).children
        #expect(children.count == 1 && children.first?.label == nil, "one unlabelled child, as Combine's")
        #expect(String(describing: children.first?.value ?? "none") == "5")
        recorder.cancel()  // the subscription and the recorder hold each other until then
    }

    @Test func emptyFinishesImmediatelyOrStaysSilent() {
        let finishing = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        Empty<Int, Oops>().subscribe(finishing)
        #expect(finishing.events == [.subscription, .completion(.finished)])
        let silent = RecordingSubscriber<Int, Oops>()
        Empty(completeImmediately: false, outputType: Int.self, failureType: Oops.self).subscribe(silent)
        #expect(silent.events == [.subscription])
        #expect(Empty<Int, Never>() == Empty<Int, Never>(completeImmediately: true))
        #expect(Empty<Int, Never>() != Empty<Int, Never>(completeImmediately: false))
    }

    @Test func failSendsItsErrorWithoutDemand() {
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        Fail<Int, Oops>(error: Oops()).subscribe(recorder)
        #expect(recorder.events == [.subscription, .completion(.failure(Oops()))])
        #expect(Fail(outputType: Int.self, failure: Oops()) == Fail<Int, Oops>(error: Oops()))
    }

    @Test func optionalPublisherDeliversValueOnDemandOrFinishesForNil() {
        let some = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Optional(4).publisher.subscribe(some)
        #expect(some.events == [.subscription])
        some.request(.max(1))
        #expect(some.events == [.subscription, .value(4), .completion(.finished)])
        let none = RecordingSubscriber<Int, Never>(initialDemand: .none)
        Optional<Int>.none.publisher.subscribe(none)
        #expect(none.events == [.subscription, .completion(.finished)])
        #expect(Optional(1).publisher == Optional<Int>.Publisher(1))
        #expect(Optional(1).publisher.output == 1)
    }

    @Test func resultPublisherDeliversSuccessOnDemandAndFailureAtOnce() {
        let success = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        Result<Int, Oops>.success(2).publisher.subscribe(success)
        #expect(success.events == [.subscription])
        success.request(.unlimited)
        #expect(success.events == [.subscription, .value(2), .completion(.finished)])
        let failure = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        Result<Int, Oops>.Publisher(Oops()).subscribe(failure)
        #expect(failure.events == [.subscription, .completion(.failure(Oops()))])
        #expect(Result<Int, Oops>.Publisher(1) == Result<Int, Oops>.Publisher(.success(1)))
        #expect(Result<Int, Oops>.Publisher(1).result == .success(1))
    }

    @Test(.exitTest) func requestNoneOnJustTrapsNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            Just(1).subscribe(recorder)
            recorder.subscription!.request(.none)
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("demand requested must be greater than zero (rule 2)"))
        }
    }

    @Test(.exitTest) func negativeDemandTrapsNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(-1)
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("demand must not be negative (rule 2)"))
        }
    }
}
