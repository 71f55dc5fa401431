import Sluice
import SluiceTesting
import Testing

/// Reactive Streams 2.5 in Combine's form: a one-shot subscriber that already has a
/// subscription cancels any later one (Combine's `Sink` and `Assign` do so) and keeps the
/// first. DESIGN rule 7 lists a second subscription among the misuses that may trap; the
/// package's own subscribers all cancel it instead (there is no call site of
/// `Violation.secondSubscription`; see Misuse/MisuseTraps.swift).
@Suite("Rule 1 for subscribers: a second subscription is cancelled (rule 2.5)", .timeLimit(.minutes(1)))
struct SecondSubscriptionRules {
    @Test("Our one-shot subscribers cancel a second subscription and keep the first",
          arguments: SubscriberRegistry.all)
    func secondSubscriptionIsCancelled(entry: SubscriberEntry) async {
        let outcome = await entry.run()
        #expect(outcome == SubscriberEntry.Outcome(first: 0, second: 1))
    }
}
