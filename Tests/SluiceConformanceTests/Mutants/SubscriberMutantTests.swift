import Sluice
import SluiceTesting
import Testing

/// The subscriber rules, each run against subscribers broken on purpose, which it must catch.
@Suite("Mutants: every subscriber rule catches a subscriber that breaks it", .timeLimit(.minutes(12)))
struct SubscriberMutantTests {
    /// Takes every subscription it gets, cancels its subscription each time it is asked (not
    /// once), and keeps it after a cancel and after the completion.
    static let greedy = SubscriberEntry.entry("greedy AnySubscriber", TestFailure.self) { publisher, counter in
        let subscriptions = Locked<[Unchecked<any Subscription>]>([])
        publisher.value.subscribe(AnySubscriber<Int, TestFailure>(
            receiveSubscription: { subscription in
                subscriptions.withLock { $0.append(Unchecked(subscription)) }
                subscription.request(.unlimited)
            },
            receiveValue: { _ in
                counter.bump()
                return .none
            }))
        return Attached { subscriptions.withLock { $0.first }?.value.cancel() }
    }

    /// Right in all but one thing: it hands each value to its code in a task of its own, and
    /// does not look at whether it was cancelled meanwhile, so a value that arrives as the
    /// cancel comes reaches its code later.
    static let hopping = SubscriberEntry.entry("AnySubscriber hopping to a task", TestFailure.self) { publisher, counter in
        let link = Locked(Unchecked<(any Subscription)?>(nil))
        let hops = Locked<[Task<Void, Never>]>([])
        publisher.value.subscribe(AnySubscriber<Int, TestFailure>(
            receiveSubscription: { subscription in
                let first = link.withLock { link -> Bool in
                    guard link.value == nil else { return false }
                    link = Unchecked(subscription)
                    return true
                }
                if first { subscription.request(.unlimited) } else { subscription.cancel() }
            },
            receiveValue: { _ in
                let hop = Task { counter.bump() }
                hops.withLock { $0.append(hop) }
                return .none
            },
            receiveCompletion: { _ in link.withLock { $0 = Unchecked(nil) } }))
        return Attached(
            cancel: { link.withLock { link in defer { link = Unchecked(nil) }; return link.value }?.cancel() },
            settled: { for hop in hops.withLock({ $0 }) { await hop.value } })
    }

    @Test("The second-subscription rule catches a subscriber that takes both")
    func secondSubscription() async {
        await Patience.$current.withValue(.milliseconds(200)) {
            await withKnownIssue { await SubscriberRules().secondSubscriptionIsCancelled(entry: Self.greedy) } matching: { isExpectationFailed($0, inFolder: "Rules") }
        }
    }

    @Test("The cancel rule catches a subscriber that cancels twice")
    func cancelTwice() async {
        await withKnownIssue { await SubscriberRules().cancelIsIdempotentForOurSubscribers(entry: Self.greedy) } matching: { isExpectationFailed($0, inFolder: "Rules") }
    }

    @Test("The cancel rule catches a value that reaches the subscriber's code late, after the cancel")
    func lateValue() async {
        await withKnownIssue { await SubscriberRules().cancelIsIdempotentForOurSubscribers(entry: Self.hopping) } matching: { isExpectationFailed($0, inFolder: "Rules") }
        // Its control: the same subscriber passes the other rules.
        await SubscriberRules().secondSubscriptionIsCancelled(entry: Self.hopping)
        await SubscriberRules().subscribersReleaseTheUpstream(entry: Self.hopping)
    }

    @Test("The release rule catches a subscriber that keeps its subscription")
    func release() async {
        await Patience.$current.withValue(.milliseconds(200)) {
            await withKnownIssue { await SubscriberRules().subscribersReleaseTheUpstream(entry: Self.greedy) } matching: { isExpectationFailed($0, inFolder: "Rules") }
        }
    }
}
