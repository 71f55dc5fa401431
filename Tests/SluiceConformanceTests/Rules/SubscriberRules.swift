import Sluice
import SluiceTesting
import Testing

/// The rules that apply to the package's own subscribers (Sink, Assign, `subscribe(subject)`,
/// each `values` variant, the awaiters, the isolated sinks), listed in ``SubscriberRegistry``.
///
/// Reactive Streams 2.5 in Combine's form: a one-shot subscriber that already has a
/// subscription cancels any later one (Combine's `Sink` and `Assign` do so) and keeps the
/// first. DESIGN rule 7 lists a second subscription among the misuses that may trap; the
/// package's own subscribers all cancel it instead (there is no call site of
/// `Violation.secondSubscription`; see Misuse/MisuseTraps.swift).
@Suite("Rules for our subscribers: second subscription, cancel", .timeLimit(.minutes(12)))
struct SubscriberRules {
    @Test("Our one-shot subscribers cancel a second subscription and keep the first",
          arguments: SubscriberRegistry.all)
    func secondSubscriptionIsCancelled(entry: SubscriberEntry) async {
        let outcome = await entry.secondSubscription()
        #expect(outcome == SubscriberEntry.SecondSubscriptionOutcome(first: 0, second: 1))
    }

    @Test("Cancelling our subscribers twice cancels the upstream once; nothing reaches their code after (rules 3.5, 3.12)",
          arguments: SubscriberRegistry.all)
    func cancelIsIdempotentForOurSubscribers(entry: SubscriberEntry) async {
        let outcome = await entry.cancelTwice()
        #expect(outcome == SubscriberEntry.CancelOutcome(upstreamCancels: 1, valuesAfterCancel: 0))
    }

    @Test("Our subscribers let go of the upstream subscription after a cancel and after a completion (rule 3.13)",
          arguments: SubscriberRegistry.all)
    func subscribersReleaseTheUpstream(entry: SubscriberEntry) async {
        let outcome = await entry.release()
        #expect(outcome == SubscriberEntry.ReleaseOutcome(afterCancel: true, afterCompletion: true))
    }
}
