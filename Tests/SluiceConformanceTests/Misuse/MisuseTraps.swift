// Every misuse trap of Sources/Sluice/Internal/Violations.swift (DESIGN rule 7, Reactive
// Streams 3.9 in Combine's form), and the exit test that makes each one fire through public
// API and checks that the message names the rule. Tests elsewhere are listed, not repeated.
//
// Violation.negativeDemand            Demand.max(-1): Tests/SluiceTests/DemandTests.swift
//                                     (negativeMaxTrapsNamingTheRule) and OneShotPublisherTests;
//                                     Demand * negative: here.
// Violation.zeroDemandRequested       request(.max(0)), at each call site that traps on it:
//   SingleValueSubscription (Just, Optional/Result.Publisher)  OneShotPublisherTests
//   FutureConduit                                             FutureDeferredTests
//   Emitting.Emitter                                            EmittingTests
//   TaskSubscription (AsyncSequence, IsolatedAsyncSequence, Producer, AsyncFuture)   AsyncSequencePublisherTests
//   SubjectConduit (both subjects)                            PassthroughSubjectTests
//   SubjectSubscriber (publisher.subscribe(subject))          here
//   UpstreamRelay (replaceError, replaceEmpty, catch, tryCatch, collect(_:))
//                                                             here, through their registry entries
//   DebounceSubscription (debounce; throttle ignores it, as Combine's)  here, through its registry entries
//   and for every registry entry (whichever call site it reaches), except those
//   given Combine's Subscriptions.empty, which ignores requests: here, parameterised.
//   (A Sequence's and a Record's subscription accept it and add nothing, as Combine's: here.)
// Violation.valueBeyondDemand         values: ValuesTests (valueBeyondDemandTrapsNamingTheRule);
//                                     values(prefetch:): ValuesVariantsTests. (The buffering
//                                     variants request .unlimited: no value can exceed it.)
//                                     catch, tryCatch, retry, replaceError (an upstream value
//                                     the downstream has not asked for, as in Combine):
//                                     Tests/SluiceTests/Operators/ErrorOperatorTests.swift.
// Violation.signalBeforeSubscription  the operators Combine traps in (tryFilter, removeDuplicates, prefix(while:),
//                                     …): Tests/SluiceTests/Operators/GuardedOperatorTests.swift;
//                                     tryCatch and retry (a value first): ErrorOperatorTests.
// Violation.requestBeforeSubscription the same operators' subscriptions: GuardedOperatorTests.
// Violation.signalAfterCompletion     catch (its upstream failing again): ErrorOperatorTests.
//                                     (`values` ignores signals out of turn, as Combine does:
//                                     ValuesOutOfTurnTests.)
// Violation.recordingAfterCompletion  a value after it: RecordTests (with the message); a
//                                     second completion: RecordTests checks the exit only,
//                                     here with the message.
// Violation.futureFinishedWithoutValue  UNREACHABLE through public API: `Future.value` awaits
//                                     a `Future`, which always delivers its promised value before
//                                     `.finished`, and the non-throwing variant cannot be
//                                     cancelled. `Future` is a final class whose storage and
//                                     conduit are internal, its promise keeps only the first
//                                     result, and `.first` cancels after one value (so neither
//                                     `.value(nil)` nor `.moreThanOne` can come back). No exit
//                                     test is possible without a private seam (checked for
//                                     issue 5, 2026-11-23).
//
// Violation.nonPositivePrefetch       values(prefetch: 0): ValuesVariantsTests.
// Violation.nonPositiveConcurrency    asyncMap(maxConcurrent: 0): AsyncMapTests (with the message).
// Violation.negativeBufferingLimit    values(bufferingPolicy: .bufferingNewest(-1)): ValuesVariantsTests;
//                                     sink(isolation:bufferingPolicy:) with .bufferingNewest(-1)
//                                     (with the message) and .bufferingOldest(-2):
//                                     IsolatedSinkBufferingTests.
//
// Violation.negativeBufferSize        buffer(size: -1, prefetch: .keepFull, …) at subscription: here
//                                     (byRequest with a negative size does not trap, as in Combine).
// Violation.negativeGroupCount        collect(.byTimeOrCount(_, _, -1)) at the first request: here.
// Violation.signalInsideCustomError   an element sent from inside buffer's customError closure:
//                                     BufferTests (with the message).
// Violation.negativeCount             dropFirst(-1) at subscription: SelectingOperatorTests.
// Violation.outputRangeTooLarge       Optional.Publisher.output(in: 0..<(Int.max - 1)):
//                                     OptionalPublisherOperatorsTests (with the message).
//
// Violation.multicastSubjectReentered  a multicast whose createSubject closure subscribes to
//                                     the multicast: MulticastTests (with the message).
// Violation.timerRanInsideSchedule    timeout on ImmediateScheduler, at subscription:
//                                     Tests/SluiceTests/Operators/Timing/SchedulerCallsTests.swift
//                                     (with the message).
//
// A second subscription to one of the package's subscribers is cancelled, not trapped, as
// Combine does (tested for each in Rules/SubscriberRules.swift).
import Sluice
import SluiceTesting
import Testing

@Suite("Rule 7: misuse traps name the rule", .timeLimit(.minutes(12)))
struct MisuseTraps {
    @Test("Multiplying demand by a negative count traps naming rule 2", .exitTest)
    func negativeDemandFromMultiplication() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(2) * -1
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Sluice API violation: demand must not be negative (rule 2)"))
        }
    }

    @Test("request(.none) on any registry publisher's subscription traps naming rule 2", .exitTest,
          arguments: Registry.trappingZeroRequests)
    func zeroDemandOnEveryPublisher(entry: Entry) async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [name = entry.name as String] in
            let (_, recorder) = Registry.entry(named: name)!.subscribe(initialDemand: .none)
            recorder.subscription!.request(.none)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Sluice API violation: request(.max(0)) (also written .none) — demand requested must be greater than zero (rule 2)"))
        }
    }

    @Test("request(.none) on a Sequence or Record subscription is accepted and adds nothing, as in Combine",
          arguments: Registry.acceptingZeroRequests)
    func zeroDemandAccepted(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .none)
        recorder.subscription!.request(.none)
        #expect(recorder.values.isEmpty)
        // A hot entry's pump sends on demand; an asynchronous one delivers from its own task
        // (buffer over a subject or a producer accepts `.none` whatever its upstream is).
        source.request(.max(1), through: recorder)
        await entry.awaitValues(min(1, entry.elements), of: recorder)
        #expect(recorder.values == entry.expectedPrefix(1))
        recorder.cancel()
    }

    @Test("request(.none) from a subject on the subscription subscribe(_:) gave it traps naming rule 2", .exitTest)
    func zeroDemandOnSubjectSubscription() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cancellable = Empty<Int, Never>(completeImmediately: false).subscribe(ZeroRequestingSubject())
            withExtendedLifetime(cancellable) {}
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Sluice API violation: request(.max(0)) (also written .none) — demand requested must be greater than zero (rule 2)"))
        }
    }

    @Test("Recording a second completion traps naming rule 4", .exitTest)
    func recordingSecondCompletion() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, Never>.Recording()
            recording.receive(completion: .finished)
            recording.receive(completion: .finished)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Sluice API violation: Record.Recording received a signal after its completion; nothing follows a completion (rule 4)"))
        }
    }

    @Test("collect(.byTimeOrCount) with a negative count traps at the first request naming rule 2", .exitTest)
    func negativeGroupCount() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<[Int], Never>(initialDemand: .none)
            Just(1).collect(.byTimeOrCount(ImmediateTestScheduler(), .seconds(1), -1)).subscribe(recorder)
            recorder.request(.max(1))
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Sluice API violation: collect(.byTimeOrCount) asks its upstream for count elements per array, and demand must not be negative (rule 2), got count -1"))
        }
    }

    @Test(
        "buffer(size:) with a negative size and keepFull traps at subscription naming rule 2; byRequest does not",
        .exitTest
    )
    func negativeBufferSize() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).buffer(size: -1, prefetch: .keepFull, whenFull: .dropNewest).sink { _ in }
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Sluice API violation: buffer(size:prefetch: .keepFull) asks its upstream for size elements, and demand must not be negative (rule 2), got size -1"))
        }
        // As in Combine, the value comes inside the first request, before the downstream asks
        // for it, and a buffer of size -1 keeps nothing.
        let recorder = RecordingSubscriber<Int, Never>()
        Just(1).buffer(size: -1, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        #expect(recorder.values.isEmpty && recorder.completion == .finished)
    }
}

/// A faulty subject: it requests `.none` from the subscription it is given.
final class ZeroRequestingSubject: Subject {
    typealias Output = Int
    typealias Failure = Never
    func send(_ value: Int) {}
    func send(completion: Subscribers.Completion<Never>) {}
    func send(subscription: any Subscription) { subscription.request(.none) }
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {}
}
