import Testing
import Sluice
import SluiceTesting

/// A sink takes its subscription without a lock (an atomic hand-off); these race the hand-off with the calls
/// that end it and with a second subscription, and count what each subscription was asked.
@Suite("A sink's subscription hand-off under races", .timeLimit(.minutes(12)))
struct SinkSubscriptionRaceTests {
    @Test("receive(subscription:) racing cancel(): the subscription is cancelled exactly once, whoever wins")
    func subscriptionRacingCancel() async {
        // The window (a cancel between the two steps of storing) is narrow: many runs to hit it. Each run
        // hands two threads a barrier, which a busy machine makes slow (20,000 runs took minutes beside
        // another test run), so fewer than the stress families' 100,000 operations.
        for _ in 0..<StressBudget.scaled(5_000) {
            let sink = makeSink()
            let subscription = CallCounter()
            await runConcurrentlyAwaiting(threads: 2) { thread in
                if thread == 0 { sink.value.receive(subscription: subscription) } else { sink.value.cancel() }
            }
            #expect(subscription.counts.cancels == 1)
            #expect(subscription.counts.requests <= 1)
        }
    }

    @Test("two subscriptions racing: one is asked for .unlimited and kept until the sink ends, the other cancelled")
    func twoSubscriptionsRacing() async {
        for _ in 0..<StressBudget.scaled(1_000) {
            let sink = makeSink()
            let subscriptions = [CallCounter(), CallCounter()]
            await runConcurrentlyAwaiting(threads: 2) { thread in
                sink.value.receive(subscription: subscriptions[thread])
            }
            let kept = subscriptions.filter { $0.counts == (requests: 1, cancels: 0) }
            let refused = subscriptions.filter { $0.counts == (requests: 0, cancels: 1) }
            #expect(kept.count == 1 && refused.count == 1)
            sink.value.receive(completion: .finished)
            sink.value.cancel()
            #expect(kept.allSatisfy { $0.counts == (requests: 1, cancels: 0) }, "a completion cancels nothing")
        }
    }

    @Test("cancel() racing receive(completion:): the kept subscription is cancelled at most once, never asked again")
    func cancelRacingCompletion() async {
        for _ in 0..<StressBudget.scaled(1_000) {
            let sink = makeSink()
            let subscription = CallCounter()
            sink.value.receive(subscription: subscription)
            await runConcurrentlyAwaiting(threads: 3) { thread in
                if thread == 0 { sink.value.receive(completion: .finished) } else { sink.value.cancel() }
            }
            #expect(subscription.counts.requests == 1 && subscription.counts.cancels <= 1)
        }
    }
}

/// A sink outside any actor whose closures do nothing, to share with the racing threads.
private func makeSink() -> UncheckedBox<Subscribers.Sink<Int, Never>> {
    UncheckedBox(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { _ in }, isolation: nil))
}

/// A subscription that counts the requests and cancels it is asked for.
private final class CallCounter: Subscription, Sendable {
    private let calls = Locked((requests: 0, cancels: 0))
    var counts: (requests: Int, cancels: Int) { calls.withLock { $0 } }
    func request(_ demand: Subscribers.Demand) { calls.withLock { $0.requests += 1 } }
    func cancel() { calls.withLock { $0.cancels += 1 } }
}
